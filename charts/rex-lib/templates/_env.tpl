{{/*
Environment shared by every rex process. dict: ctx, vals (the role's values),
serviceName (OTEL_SERVICE_NAME), deploymentName. Returns a JSON map of plain variables.
*/}}
{{- define "rex-lib.commonEnv" -}}
{{- $ctx := .ctx -}}
{{- $vals := .vals -}}
{{- $env := dict -}}
{{- $_ := set $env "LOG_LEVEL" ($vals.logLevel | default "info") -}}
{{- $_ := set $env "METRICS_HOST" "0.0.0.0" -}}
{{- $_ := set $env "METRICS_PORT" (include "rex-lib.str" ($vals.metrics.port | default 9464)) -}}
{{- $_ := set $env "SHUTDOWN_DELAY_MS" "0" -}}
{{- $_ := set $env "SHUTDOWN_TIMEOUT_MS" (include "rex-lib.shutdownTimeoutMs" (dict "vals" $vals)) -}}
{{- $nodeOptions := printf "--max-old-space-size=%s" (include "rex-lib.heapMiB" (dict "vals" $vals)) -}}
{{- with $vals.extraNodeOptions }}{{- $nodeOptions = printf "%s %s" $nodeOptions . -}}{{- end -}}
{{- $_ := set $env "NODE_OPTIONS" $nodeOptions -}}
{{- $_ := set $env "OTEL_SERVICE_NAME" .serviceName -}}
{{- $endpoint := (include "rex-lib.setting" (dict "ctx" $ctx "values" $vals "path" "otel.endpoint" "default" "") | fromJson).v -}}
{{- if $endpoint -}}
{{- $_ := set $env "OTEL_EXPORTER_OTLP_ENDPOINT" $endpoint -}}
{{- $sampler := (include "rex-lib.setting" (dict "ctx" $ctx "values" $vals "path" "otel.sampler" "default" "parentbased_traceidratio") | fromJson).v -}}
{{- $_ := set $env "OTEL_TRACES_SAMPLER" $sampler -}}
{{- if hasSuffix "traceidratio" $sampler -}}
{{- $ratio := (include "rex-lib.setting" (dict "ctx" $ctx "values" $vals "path" "otel.samplerRatio" "default" "0.1") | fromJson).v -}}
{{- $_ := set $env "OTEL_TRACES_SAMPLER_ARG" (include "rex-lib.str" $ratio) -}}
{{- end -}}
{{- end -}}
{{- $attributes := list "k8s.pod.name=$(K8S_POD_NAME)" "k8s.namespace.name=$(K8S_NAMESPACE_NAME)" "k8s.node.name=$(K8S_NODE_NAME)" (printf "k8s.deployment.name=%s" .deploymentName) "service.namespace=rex" -}}
{{- $extra := (include "rex-lib.setting" (dict "ctx" $ctx "values" $vals "path" "otel.resourceAttributes" "default" dict) | fromJson).v -}}
{{- range $key := keys $extra | sortAlpha -}}
{{- $attributes = append $attributes (printf "%s=%s" $key (include "rex-lib.str" (index $extra $key))) -}}
{{- end -}}
{{- $_ := set $env "OTEL_RESOURCE_ATTRIBUTES" (join "," $attributes) -}}
{{- $env | toJson -}}
{{- end -}}

{{/*
A container's env list. dict: ctx, vals, env (map of plain variables computed
by the chart), secretEnv (list of {name, secret, key}). The role's `env` map
(vals.env) adds variables and may override computed plain ones;
`vals.secretEnv` (list of {name, secretName, key}) adds variables read from
existing Secrets. Downward-API variables come first so that
OTEL_RESOURCE_ATTRIBUTES can refer to them; the rest are sorted by name.
*/}}
{{- define "rex-lib.envList" -}}
{{- $plain := merge (deepCopy (.vals.env | default dict)) .env -}}
{{- $secrets := list -}}
{{- range .secretEnv -}}{{- $secrets = append $secrets (dict "name" .name "secret" .secret "key" .key "optional" (.optional | default false)) -}}{{- end -}}
{{- range .vals.secretEnv | default list -}}{{- $secrets = append $secrets (dict "name" .name "secret" .secretName "key" .key "optional" (.optional | default false)) -}}{{- end -}}
{{- $seen := dict -}}
{{- range $secrets -}}
{{- if or (hasKey $plain .name) (hasKey $seen .name) -}}
{{- fail (printf "environment variable %s is set twice (env and a Secret): set it once" .name) -}}
{{- end -}}
{{- $_ := set $seen .name true -}}
{{- end -}}
- name: K8S_POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: K8S_NAMESPACE_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: K8S_NODE_NAME
  valueFrom:
    fieldRef:
      fieldPath: spec.nodeName
{{- range $name := keys $plain | sortAlpha }}
{{- if has $name (list "K8S_POD_NAME" "K8S_NAMESPACE_NAME" "K8S_NODE_NAME") }}
{{- fail (printf "environment variable %s is set by the chart (downward API)" $name) }}
{{- end }}
- name: {{ $name }}
  value: {{ include "rex-lib.str" (index $plain $name) | quote }}
{{- end }}
{{- range $secrets }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}
