{{/* The records container's environment (plain variables). */}}
{{- define "records.env" -}}
{{- $env := include "rex-lib.commonEnv" (dict "ctx" . "vals" .Values "serviceName" "records" "deploymentName" (include "rex-lib.fullname" .)) | fromJson -}}
{{- $_ := set $env "GRPC_HOST" "0.0.0.0" -}}
{{- $_ := set $env "GRPC_PORT" (include "rex-lib.str" .Values.service.port) -}}
{{- $_ := set $env "MIGRATE_ON_START" (ternary "false" "true" .Values.migrations.enabled) -}}
{{- $_ := set $env "MEDIA_ADDR" (include "rex-lib.backendAddress" (dict "ctx" . "chart" "media")) -}}
{{- $env | toJson -}}
{{- end -}}

{{/* Variables read from existing Secrets. */}}
{{- define "records.secretEnv" -}}
{{- $db := include "rex-lib.databaseRef" . | fromJson -}}
{{- $auth := include "rex-lib.internalAuthRef" . | fromJson -}}
{{- dict "list" (list (dict "name" "DATABASE_URL" "secret" $db.secret "key" $db.key) (dict "name" "INTERNAL_AUTH_SECRET" "secret" $auth.secret "key" $auth.key)) | toJson -}}
{{- end -}}
