{{/* The search container's environment (plain variables). */}}
{{- define "search.env" -}}
{{- $env := include "rex-lib.commonEnv" (dict "ctx" . "vals" .Values "serviceName" "search" "deploymentName" (include "rex-lib.fullname" .)) | fromJson -}}
{{- $rc := include "rex-lib.restConfig" . | fromJson -}}
{{- $_ := set $env "GRPC_HOST" "0.0.0.0" -}}
{{- $_ := set $env "GRPC_PORT" (include "rex-lib.str" .Values.service.port) -}}
{{- $_ := set $env "REX_CONFIG" $rc.path -}}
{{- $env | toJson -}}
{{- end -}}

{{/* Variables read from existing Secrets. */}}
{{- define "search.secretEnv" -}}
{{- $auth := include "rex-lib.internalAuthRef" . | fromJson -}}
{{- dict "list" (list (dict "name" "INTERNAL_AUTH_SECRET" "secret" $auth.secret "key" $auth.key)) | toJson -}}
{{- end -}}
