#!/usr/bin/env bash
# Checks the Helm charts under charts/ offline:
#
#   1. scripts/k8s-tools.sh installs (when missing) helm, kubeconform, helm-unittest, the
#      Kubernetes JSON schemas and kube-apiserver; its "schemas: <dir>" lines name the schemas of
#      each pinned Kubernetes version, in directories named after it (.../v1.33.13: the oldest
#      version the charts support, and the kube-apiserver's). K8S_SCHEMAS overrides them (directories
#      separated by spaces, each named v<major>.<minor>.<patch>); REX_SKIP_APISERVER=1 skips
#      building kube-apiserver.
#   2. helm dependency build for every chart with dependencies (service charts before the
#      umbrella, which packages them); the archives go to <chart>/charts/ (gitignored), the
#      committed Chart.lock files must match Chart.yaml.
#   3. For every chart, every ci/*-values.yaml and every pinned Kubernetes version: helm lint
#      --strict --kube-version <version>, helm template and kubeconform -strict against that
#      version's schemas, HTTPRoute against the Gateway API's (scripts/crd-schemas.mjs).
#   4. helm-unittest for every chart with tests/.
#   5. scripts/k8s-apiserver.sh: a server-side dry run of the umbrella's production scenario
#      against a throw-away kube-apiserver (it prints "skipped: ..." when not installed).
#
# Usage: scripts/check-charts.sh            (from anywhere; exit status 0 when every check passed)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CHARTS="$ROOT/charts"
NAMESPACE=rex
RELEASE=rex
SERVICE_CHARTS=(gateway records reports media search)
UMBRELLA=rex
LIBRARY=rex-lib

step() { printf '\n== %s\n' "$*"; }
failures=()
fail() { failures+=("$1"); printf 'FAILED: %s\n' "$1" >&2; }

step "tools (scripts/k8s-tools.sh)"
tools_status=0
tools_out="$("$ROOT/scripts/k8s-tools.sh")" || tools_status=$?
if [ "$tools_status" -ne 0 ]; then
  echo "scripts/k8s-tools.sh failed (exit $tools_status)" >&2
  exit 1
fi
printf '%s\n' "$tools_out"
GOBIN="${GOBIN:-$HOME/go/bin}"
export PATH="$GOBIN:$PATH"
# The Gateway API's kinds (HTTPRoute), when k8s-tools.sh could make their schemas; skipped otherwise.
CRD_SCHEMAS="$(printf '%s\n' "$tools_out" | sed -n 's/^crd-schemas: //p' | head -n 1)"
if [ -n "$CRD_SCHEMAS" ]; then
  KUBECONFORM_EXTRA=(-schema-location "$CRD_SCHEMAS/{{ .ResourceKind }}{{ .KindSuffix }}.json")
else
  echo "warning: no Gateway API schemas; HTTPRoute is not validated" >&2
  KUBECONFORM_EXTRA=(-skip HTTPRoute)
fi
read -r -a SCHEMA_DIRS <<<"${K8S_SCHEMAS:-$(printf '%s\n' "$tools_out" | sed -n 's/^schemas: //p' | tr '\n' ' ')}"
[ ${#SCHEMA_DIRS[@]} -gt 0 ] || { echo "no schema directory (k8s-tools.sh printed no 'schemas: <dir>' line; set K8S_SCHEMAS)" >&2; exit 1; }
KUBE_VERSIONS=()
for dir in "${SCHEMA_DIRS[@]}"; do
  version="$(basename "$dir")"
  [ -d "$dir" ] && [[ "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    { echo "schema directory $dir: missing, or not named after its Kubernetes version (v1.33.13)" >&2; exit 1; }
  KUBE_VERSIONS+=("${version#v}")
done
for tool in helm kubeconform helm-unittest; do
  command -v "$tool" >/dev/null 2>&1 || { echo "$tool not found after scripts/k8s-tools.sh" >&2; exit 1; }
done
echo "helm $(helm version --short), kubeconform $(kubeconform -v), Kubernetes ${KUBE_VERSIONS[*]} (schemas ${SCHEMA_DIRS[*]})"

OUT="$(mktemp -d "${TMPDIR:-/tmp}/rex-check-charts.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT

step "helm dependency build"
for chart in "${SERVICE_CHARTS[@]}" "$UMBRELLA"; do
  if helm dependency build "$CHARTS/$chart" >"$OUT/dep-$chart.log" 2>&1; then
    echo "ok   $chart"
  else
    cat "$OUT/dep-$chart.log" >&2
    fail "helm dependency build $chart"
  fi
done

step "lint, template, kubeconform"
if helm lint --strict --kube-version "${KUBE_VERSIONS[0]}" "$CHARTS/$LIBRARY" >"$OUT/lint-$LIBRARY.log" 2>&1; then
  echo "ok   $LIBRARY (lint)"
else
  cat "$OUT/lint-$LIBRARY.log" >&2
  fail "helm lint $LIBRARY"
fi
for chart in "${SERVICE_CHARTS[@]}" "$UMBRELLA"; do
  shopt -s nullglob
  scenarios=("$CHARTS/$chart"/ci/*-values.yaml)
  shopt -u nullglob
  [ ${#scenarios[@]} -gt 0 ] || { fail "$chart has no ci/*-values.yaml"; continue; }
  for values in "${scenarios[@]}"; do
    scenario="$(basename "$values" -values.yaml)"
    for i in "${!KUBE_VERSIONS[@]}"; do
      kube="${KUBE_VERSIONS[$i]}"
      name="$chart/$scenario @$kube"
      rendered="$OUT/$chart-$scenario-$kube.yaml"
      if ! helm lint --strict --kube-version "$kube" --namespace "$NAMESPACE" -f "$values" "$CHARTS/$chart" >"$OUT/lint.log" 2>&1; then
        cat "$OUT/lint.log" >&2
        fail "helm lint $name"
        continue
      fi
      if ! helm template "$RELEASE" "$CHARTS/$chart" --kube-version "$kube" --namespace "$NAMESPACE" -f "$values" >"$rendered" 2>"$OUT/template.log"; then
        cat "$OUT/template.log" >&2
        fail "helm template $name"
        continue
      fi
      if summary="$(kubeconform -strict -summary "${KUBECONFORM_EXTRA[@]}" \
        -schema-location "${SCHEMA_DIRS[$i]}/{{ .ResourceKind }}{{ .KindSuffix }}.json" "$rendered" 2>&1)"; then
        echo "ok   $name: $(printf '%s\n' "$summary" | tail -n 1)"
      else
        printf '%s\n' "$summary" >&2
        fail "kubeconform $name"
      fi
    done
  done
done

step "helm-unittest"
for chart in "${SERVICE_CHARTS[@]}" "$UMBRELLA"; do
  shopt -s nullglob
  suites=("$CHARTS/$chart"/tests/*_test.yaml)
  shopt -u nullglob
  [ ${#suites[@]} -gt 0 ] || continue
  if helm-unittest --color=false "$CHARTS/$chart" >"$OUT/unittest-$chart.log" 2>&1; then
    echo "ok   $chart: $(grep -E '^Tests:' "$OUT/unittest-$chart.log" | tr -s ' ')"
  else
    cat "$OUT/unittest-$chart.log" >&2
    fail "helm-unittest $chart"
  fi
done

# Rendered for the newest version, the kube-apiserver's.
step "server-side dry run (scripts/k8s-apiserver.sh, $UMBRELLA/production @${KUBE_VERSIONS[-1]})"
production="$OUT/$UMBRELLA-production-${KUBE_VERSIONS[-1]}.yaml"
if [ ! -f "$production" ]; then
  fail "no rendered $UMBRELLA/production scenario to dry-run"
elif [ -x "$ROOT/scripts/k8s-apiserver.sh" ]; then
  # The API server knows no CRDs: the prometheus-operator kinds are left out of the dry run
  # (kubeconform validated them above).
  server_manifest="$OUT/$UMBRELLA-production-core.yaml"
  awk '
    function flush() {
      if (doc != "" && doc !~ /(^|\n)kind: (ServiceMonitor|PodMonitor|PrometheusRule|HTTPRoute)\n/) printf "---\n%s", doc
      doc = ""
    }
    /^---/ { flush(); next }
    { doc = doc $0 "\n" }
    END { flush() }' "$production" >"$server_manifest"
  if ! "$ROOT/scripts/k8s-apiserver.sh" "$server_manifest" "$NAMESPACE"; then
    fail "k8s-apiserver.sh $UMBRELLA/production"
  fi
else
  echo "skipped: scripts/k8s-apiserver.sh not present"
fi

if [ ${#failures[@]} -gt 0 ]; then
  printf '\n%d check(s) failed:\n' "${#failures[@]}" >&2
  printf '  %s\n' "${failures[@]}" >&2
  exit 1
fi
printf '\nall chart checks passed\n'
