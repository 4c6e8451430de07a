#!/usr/bin/env bash
# Server-side dry run of Kubernetes manifests against a real, throw-away API server.
#
#   scripts/k8s-apiserver.sh <manifest.yaml | -> [namespace]
#
# Starts etcd and kube-apiserver (installed by scripts/k8s-tools.sh) on loopback in a temp dir:
# token auth (one system:masters token), RBAC, service-account flags with a generated RSA key,
# the secure port on 127.0.0.1 with the self-signed serving certificate kube-apiserver generates
# into --cert-dir. It waits for /readyz, creates the namespace given as $2 (for real, and uses it
# as the default namespace), runs
#   kubectl --server https://127.0.0.1:<port> --token ... --insecure-skip-tls-verify \
#     apply --dry-run=server -f "$1"
# (strict server-side field validation, admission and defaulting), stops both servers, removes the
# temp dir and exits with kubectl's status.
# If kube-apiserver, etcd or kubectl is missing it prints "skipped: ..." and exits 0.
# The server has no CRDs: filter out monitoring.coreos.com objects (ServiceMonitor, PodMonitor,
# PrometheusRule) first and check those with kubeconform and the schemas from k8s-tools.sh.
#
# Example: helm template rex charts/rex --namespace rex >/tmp/rex.yaml && scripts/k8s-apiserver.sh /tmp/rex.yaml rex
set -euo pipefail

usage() { echo "usage: $0 <manifest.yaml|-> [namespace]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
MANIFEST="$1"
NAMESPACE="${2:-}"
[ "$MANIFEST" = "-" ] || [ -f "$MANIFEST" ] || { echo "k8s-apiserver: no such file: $MANIFEST" >&2; exit 2; }

GOBIN="${GOBIN:-$HOME/go/bin}"
export PATH="$GOBIN:/usr/local/go/bin:$PATH"

find_bin() { # name -> path (GOBIN first, then PATH)
  if [ -x "$GOBIN/$1" ]; then printf '%s\n' "$GOBIN/$1"; else command -v "$1" 2>/dev/null || true; fi
}
APISERVER="$(find_bin kube-apiserver)"
ETCD="$(find_bin etcd)"
KUBECTL="$(command -v kubectl 2>/dev/null || true)"
missing=()
[ -n "$APISERVER" ] || missing+=("kube-apiserver")
[ -n "$ETCD" ] || missing+=("etcd")
[ -n "$KUBECTL" ] || missing+=("kubectl")
if [ ${#missing[@]} -gt 0 ]; then
  echo "skipped: ${missing[*]} not installed (run scripts/k8s-tools.sh without REX_SKIP_APISERVER=1); no server-side dry run of $MANIFEST"
  exit 0
fi

log() { printf '[k8s-apiserver] %s\n' "$*" >&2; }

TMP="$(mktemp -d "${TMPDIR:-/tmp}/rex-k8s-apiserver.XXXXXX")"
ETCD_PID=""
APISERVER_PID=""
stop() { # stop only the processes this script started
  local pid
  for pid in "$APISERVER_PID" "$ETCD_PID"; do
    [ -n "$pid" ] || continue
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  APISERVER_PID=""
  ETCD_PID=""
}
cleanup() {
  stop
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The manifest may be stdin; keep a copy so a failure report can show it was read once.
if [ "$MANIFEST" = "-" ]; then
  cat >"$TMP/manifest.yaml"
  MANIFEST="$TMP/manifest.yaml"
fi

port_in_use() { (: <"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# Ports below the kernel's ephemeral range: a port inside it may be taken as the local end of an
# outgoing connection (kube-apiserver's own to etcd, say) between being found free and being bound.
EPHEMERAL_LOW="$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
if [ "${EPHEMERAL_LOW:-0}" -gt 12000 ]; then PORT_LOW=10000 PORT_SPAN=$((EPHEMERAL_LOW - 10000)); else PORT_LOW=20000 PORT_SPAN=30000; fi
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((PORT_LOW + RANDOM % PORT_SPAN))
    if ! port_in_use "$p" && [[ " ${USED_PORTS:-} " != *" $p "* ]]; then
      USED_PORTS="${USED_PORTS:-} $p"
      printf '%s\n' "$p"
      return 0
    fi
  done
  echo "k8s-apiserver: no free port found" >&2
  return 1
}
ETCD_CLIENT_PORT="$(free_port)"
ETCD_PEER_PORT="$(free_port)"
API_PORT="$(free_port)"

# Service-account signing key.
if command -v openssl >/dev/null 2>&1; then
  openssl genrsa -out "$TMP/sa.key" 2048 2>/dev/null
  openssl rsa -in "$TMP/sa.key" -pubout -out "$TMP/sa.pub" 2>/dev/null
else
  node -e '
    const { generateKeyPairSync } = require("node:crypto");
    const fs = require("node:fs");
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    fs.writeFileSync(process.argv[1], privateKey.export({ type: "pkcs1", format: "pem" }));
    fs.writeFileSync(process.argv[2], publicKey.export({ type: "spki", format: "pem" }));
  ' "$TMP/sa.key" "$TMP/sa.pub"
fi

TOKEN="rex-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
printf '%s,rex-admin,rex-admin,"system:masters"\n' "$TOKEN" >"$TMP/tokens.csv"
chmod 600 "$TMP/tokens.csv" "$TMP/sa.key"
mkdir -p "$TMP/etcd" "$TMP/certs"

etcd_flags=(
  --name rex-dry-run
  --data-dir "$TMP/etcd"
  --listen-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT"
  --advertise-client-urls "http://127.0.0.1:$ETCD_CLIENT_PORT"
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT"
  --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT"
  --initial-cluster "rex-dry-run=http://127.0.0.1:$ETCD_PEER_PORT"
  --log-level error
)
# Throw-away data: skip fsync where this etcd supports it.
"$ETCD" --help 2>&1 | grep -q -- '--unsafe-no-fsync' && etcd_flags+=(--unsafe-no-fsync)
"$ETCD" --help 2>&1 | grep -q -- '--logger' && etcd_flags+=(--logger zap)

log "etcd on 127.0.0.1:$ETCD_CLIENT_PORT, kube-apiserver on https://127.0.0.1:$API_PORT (temp dir $TMP)"
"$ETCD" "${etcd_flags[@]}" </dev/null >"$TMP/etcd.log" 2>&1 &
ETCD_PID=$!

"$APISERVER" \
  --etcd-servers "http://127.0.0.1:$ETCD_CLIENT_PORT" \
  --bind-address 127.0.0.1 \
  --advertise-address 127.0.0.1 \
  --secure-port "$API_PORT" \
  --cert-dir "$TMP/certs" \
  --token-auth-file "$TMP/tokens.csv" \
  --authorization-mode RBAC \
  --anonymous-auth=false \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$TMP/sa.pub" \
  --service-account-signing-key-file "$TMP/sa.key" \
  --service-cluster-ip-range 10.96.0.0/16 \
  --endpoint-reconciler-type none \
  --enable-priority-and-fairness=false \
  --profiling=false \
  </dev/null >"$TMP/apiserver.log" 2>&1 &
APISERVER_PID=$!

export KUBECONFIG="$TMP/kubeconfig" # ignore any ambient kubeconfig
printf 'apiVersion: v1\nkind: Config\n' >"$KUBECONFIG"
K=("$KUBECTL" --server "https://127.0.0.1:$API_PORT" --token "$TOKEN" --insecure-skip-tls-verify)

ready=0
for _ in $(seq 1 240); do # up to 120 s
  if ! kill -0 "$APISERVER_PID" 2>/dev/null || ! kill -0 "$ETCD_PID" 2>/dev/null; then break; fi
  if [ "$("${K[@]}" get --raw /readyz 2>/dev/null || true)" = "ok" ]; then ready=1; break; fi
  sleep 0.5
done
if [ "$ready" != 1 ]; then
  log "kube-apiserver did not become ready; last lines of its log and etcd's:"
  tail -n 25 "$TMP/apiserver.log" >&2 || true
  tail -n 10 "$TMP/etcd.log" >&2 || true
  exit 1
fi
log "ready in ${SECONDS}s ($("$APISERVER" --version 2>/dev/null), etcd $("$ETCD" --version 2>/dev/null | sed -n 1p | sed 's/.*: //'))"

ns_args=()
if [ -n "$NAMESPACE" ]; then
  "${K[@]}" create namespace "$NAMESPACE" >&2
  ns_args=(--namespace "$NAMESPACE")
fi

status=0
"${K[@]}" apply --dry-run=server "${ns_args[@]}" -f "$MANIFEST" || status=$?
if [ "$status" -ne 0 ]; then
  log "kubectl apply --dry-run=server failed (exit $status)"
fi
exit "$status"
