{{/* A ConfigMap. dict: ctx, name, component ("" for the whole chart), data (map of file name to text), annotations. */}}
{{- define "rex-lib.configMap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .name }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" (dict "ctx" .ctx "component" (.component | default "")) | nindent 4 }}
  {{- with .annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
data:
  {{- range $file := keys .data | sortAlpha }}
  {{ $file }}: |-
    {{- index $.data $file | toString | trim | nindent 4 }}
  {{- end }}
{{- end -}}

{{/*
The REST configuration used when neither the chart nor global names one: the
production starting point of config/examples/jwt-only.yaml (users with tokens
signed by their website, HTTPS only).
*/}}
{{- define "rex-lib.defaultRestConfig" -}}
claim_namespace: indicia.org.uk
authentication_methods:
  jwtUser:
    allow_cors: true
{{- end -}}

{{/*
Where the REST configuration (REX_CONFIG) comes from. restConfig.existingSecret
(else global.restConfig.existingSecret): a Secret the operator made, for a
configuration holding legacy client secrets (clients.*.shared_secret);
otherwise restConfig.config (else global.restConfig.config, else
rex-lib.defaultRestConfig) rendered into the chart's ConfigMap
<fullname>-rest-config. Returns JSON {fromSecret, secret, key, configMap,
content, path, checksum}.
*/}}
{{- define "rex-lib.restConfig" -}}
{{- $secret := (include "rex-lib.setting" (dict "ctx" . "path" "restConfig.existingSecret" "default" "") | fromJson).v -}}
{{- $key := (include "rex-lib.setting" (dict "ctx" . "path" "restConfig.key" "default" "rest-config.yaml") | fromJson).v -}}
{{- $config := (include "rex-lib.setting" (dict "ctx" . "path" "restConfig.config" "default" (include "rex-lib.defaultRestConfig" . | fromYaml)) | fromJson).v -}}
{{- if not (regexMatch "^[A-Za-z0-9._-]+\\.(ya?ml|json)$" $key) -}}
{{- fail (printf "restConfig.key %q must be a file name ending .yaml, .yml or .json (the services parse by extension)" $key) -}}
{{- end -}}
{{- $content := toYaml $config -}}
{{- $result := dict "fromSecret" (ne $secret "") "secret" $secret "key" (ternary $key "rest-config.yaml" (ne $secret "")) "configMap" (printf "%s-rest-config" (include "rex-lib.fullname" .)) "content" $content -}}
{{- $_ := set $result "path" (printf "/etc/rex/rest-config/%s" $result.key) -}}
{{- $_ := set $result "checksum" (ternary (printf "secret:%s/%s" $secret $key) $content (ne $secret "") | sha256sum) -}}
{{- $result | toJson -}}
{{- end -}}

{{/* The ConfigMap of the REST configuration, unless it comes from an existing Secret. */}}
{{- define "rex-lib.restConfigMap" -}}
{{- $rc := include "rex-lib.restConfig" . | fromJson -}}
{{- if not $rc.fromSecret -}}
{{- include "rex-lib.configMap" (dict "ctx" . "name" $rc.configMap "data" (dict "rest-config.yaml" $rc.content)) -}}
{{- end -}}
{{- end -}}

{{/* The volume holding the REST configuration (a list of one). */}}
{{- define "rex-lib.restConfigVolumes" -}}
{{- $rc := include "rex-lib.restConfig" . | fromJson -}}
- name: rest-config
  {{- if $rc.fromSecret }}
  secret:
    secretName: {{ $rc.secret }}
    items:
      - key: {{ $rc.key }}
        path: {{ $rc.key }}
  {{- else }}
  configMap:
    name: {{ $rc.configMap }}
  {{- end }}
{{- end -}}
