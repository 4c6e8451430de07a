{{/* PUBLIC_BASE_URL: config.publicBaseUrl, else from the ingress host, else from the HTTPRoute's first hostname; "" when none. */}}
{{- define "gateway.publicBaseUrl" -}}
{{- if .Values.config.publicBaseUrl -}}
{{- .Values.config.publicBaseUrl -}}
{{- else if and .Values.ingress.enabled .Values.ingress.host -}}
{{- printf "%s://%s" (ternary "https" "http" .Values.ingress.tls.enabled) .Values.ingress.host -}}
{{- else if and .Values.httpRoute.enabled .Values.httpRoute.hostnames -}}
{{- printf "https://%s" (first .Values.httpRoute.hostnames) -}}
{{- end -}}
{{- end -}}

{{/* The longest request the gateway serves, in seconds, plus 10 s: the proxy must wait at least that long. */}}
{{- define "gateway.proxyTimeoutSeconds" -}}
{{- $c := .Values.config -}}
{{- $longest := max (int64 $c.uploadDeadlineMs) (int64 $c.reportDeadlineMs) (int64 $c.searchDeadlineMs) -}}
{{- add (div (add $longest 999) 1000) 10 -}}
{{- end -}}

{{/*
The largest request body the proxy must let through: an upload request of up
to 20 files (the gateway's limit) of media_queue.max_upload_size each (8 MiB
when not set, and when the configuration is in a Secret the chart cannot read),
plus 1 MiB of multipart overhead; at least BODY_LIMIT.
*/}}
{{- define "gateway.proxyBodySize" -}}
{{- if .Values.ingress.nginx.proxyBodySize -}}
{{- .Values.ingress.nginx.proxyBodySize -}}
{{- else -}}
{{- $rc := include "rex-lib.restConfig" . | fromJson -}}
{{- $config := $rc.content | fromYaml -}}
{{- $bytes := int64 (dig "media_queue" "max_upload_size" 8388608 $config) -}}
{{- $mib := div (add $bytes 1048575) 1048576 -}}
{{- printf "%dm" (add (mul $mib 20) 1) -}}
{{- end -}}
{{- end -}}

{{/* The gateway container's environment (plain variables). */}}
{{- define "gateway.env" -}}
{{- $env := include "rex-lib.commonEnv" (dict "ctx" . "vals" .Values "serviceName" "gateway" "deploymentName" (include "rex-lib.fullname" .)) | fromJson -}}
{{- $rc := include "rex-lib.restConfig" . | fromJson -}}
{{- $c := .Values.config -}}
{{- $_ := set $env "GATEWAY_HOST" "0.0.0.0" -}}
{{- $_ := set $env "GATEWAY_PORT" (include "rex-lib.str" .Values.service.port) -}}
{{- $_ := set $env "MIGRATE_ON_START" (ternary "false" "true" .Values.migrations.enabled) -}}
{{- $_ := set $env "REX_CONFIG" $rc.path -}}
{{- range $chart := list "records" "reports" "search" "media" -}}
{{- $_ := set $env (printf "%s_ADDR" (upper $chart)) (include "rex-lib.backendAddress" (dict "ctx" $ "chart" $chart)) -}}
{{- end -}}
{{- $_ := set $env "BODY_LIMIT" $c.bodyLimit -}}
{{- $_ := set $env "UPLOAD_DEADLINE_MS" (include "rex-lib.str" $c.uploadDeadlineMs) -}}
{{- $_ := set $env "REPORT_DEADLINE_MS" (include "rex-lib.str" $c.reportDeadlineMs) -}}
{{- $_ := set $env "SEARCH_DEADLINE_MS" (include "rex-lib.str" $c.searchDeadlineMs) -}}
{{- $_ := set $env "TRUSTED_PROXIES" ($c.trustedProxies | default "") -}}
{{- with include "gateway.publicBaseUrl" . }}{{- $_ := set $env "PUBLIC_BASE_URL" . -}}{{- end -}}
{{- $env | toJson -}}
{{- end -}}

{{/* Variables read from existing Secrets. */}}
{{- define "gateway.secretEnv" -}}
{{- $db := include "rex-lib.databaseRef" . | fromJson -}}
{{- $auth := include "rex-lib.internalAuthRef" . | fromJson -}}
{{- $list := list (dict "name" "DATABASE_URL" "secret" $db.secret "key" $db.key) (dict "name" "INTERNAL_AUTH_SECRET" "secret" $auth.secret "key" $auth.key) -}}
{{- with .Values.rateLimit.redis.existingSecret -}}
{{- $list = append $list (dict "name" "RATE_LIMIT_REDIS_URL" "secret" . "key" $.Values.rateLimit.redis.key) -}}
{{- end -}}
{{- dict "list" $list | toJson -}}
{{- end -}}
