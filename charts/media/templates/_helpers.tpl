{{/* Checks the storage settings; fails on a combination that cannot work. */}}
{{- define "media.validate" -}}
{{- $s := .Values.storage -}}
{{- if eq $s.type "s3" -}}
{{- if not $s.s3.bucket -}}{{- fail "storage.s3.bucket is required when storage.type is s3" -}}{{- end -}}
{{- else if eq $s.type "local" -}}
{{- $rwx := has "ReadWriteMany" ($s.local.persistence.accessModes | default list) -}}
{{- $many := or (gt (int .Values.replicaCount) 1) (and .Values.autoscaling.enabled (gt (int .Values.autoscaling.maxReplicas) 1)) -}}
{{- if and $many (not $rwx) (not $s.local.persistence.existingClaim) -}}
{{- fail "storage.type local with more than one replica (replicaCount or autoscaling.maxReplicas > 1) needs storage.local.persistence.accessModes [ReadWriteMany]: every replica must see every file" -}}
{{- end -}}
{{- if and $many $s.local.persistence.existingClaim (not $rwx) -}}
{{- fail "storage.type local with more than one replica needs a ReadWriteMany volume: set storage.local.persistence.accessModes [ReadWriteMany] to confirm that storage.local.persistence.existingClaim is one" -}}
{{- end -}}
{{- else -}}
{{- fail (printf "storage.type must be s3 or local, not %q" $s.type) -}}
{{- end -}}
{{- end -}}

{{/* Name of the PersistentVolumeClaim of local storage. */}}
{{- define "media.claimName" -}}
{{- .Values.storage.local.persistence.existingClaim | default (printf "%s-files" (include "rex-lib.fullname" .)) -}}
{{- end -}}

{{/* True when pods must not overlap (one ReadWriteOnce volume): the Deployment then uses Recreate. */}}
{{- define "media.exclusiveVolume" -}}
{{- and (eq .Values.storage.type "local") (not (has "ReadWriteMany" (.Values.storage.local.persistence.accessModes | default list))) -}}
{{- end -}}

{{/* The media container's environment (plain variables). */}}
{{- define "media.env" -}}
{{- $env := include "rex-lib.commonEnv" (dict "ctx" . "vals" .Values "serviceName" "media" "deploymentName" (include "rex-lib.fullname" .)) | fromJson -}}
{{- $rc := include "rex-lib.restConfig" . | fromJson -}}
{{- $_ := set $env "GRPC_HOST" "0.0.0.0" -}}
{{- $_ := set $env "GRPC_PORT" (include "rex-lib.str" .Values.service.port) -}}
{{- $_ := set $env "MIGRATE_ON_START" (ternary "false" "true" .Values.migrations.enabled) -}}
{{- $_ := set $env "REX_CONFIG" $rc.path -}}
{{- $_ := set $env "MEDIA_STORAGE" .Values.storage.type -}}
{{- if eq .Values.storage.type "s3" -}}
{{- $s3 := .Values.storage.s3 -}}
{{- $_ := set $env "S3_BUCKET" $s3.bucket -}}
{{- $_ := set $env "S3_REGION" $s3.region -}}
{{- $_ := set $env "S3_FORCE_PATH_STYLE" (toString $s3.forcePathStyle) -}}
{{- $_ := set $env "S3_PREFIX" ($s3.prefix | default "") -}}
{{- with $s3.endpoint }}{{- $_ := set $env "S3_ENDPOINT" . -}}{{- end -}}
{{- else -}}
{{- $_ := set $env "MEDIA_DIR" .Values.storage.local.mountPath -}}
{{- end -}}
{{- $env | toJson -}}
{{- end -}}

{{/* Variables read from existing Secrets. */}}
{{- define "media.secretEnv" -}}
{{- $db := include "rex-lib.databaseRef" . | fromJson -}}
{{- $auth := include "rex-lib.internalAuthRef" . | fromJson -}}
{{- $list := list (dict "name" "DATABASE_URL" "secret" $db.secret "key" $db.key) (dict "name" "INTERNAL_AUTH_SECRET" "secret" $auth.secret "key" $auth.key) -}}
{{- $s3 := .Values.storage.s3 -}}
{{- if and (eq .Values.storage.type "s3") $s3.existingSecret -}}
{{- $list = append $list (dict "name" "AWS_ACCESS_KEY_ID" "secret" $s3.existingSecret "key" $s3.accessKeyIdKey) -}}
{{- $list = append $list (dict "name" "AWS_SECRET_ACCESS_KEY" "secret" $s3.existingSecret "key" $s3.secretAccessKeyKey) -}}
{{- end -}}
{{- dict "list" $list | toJson -}}
{{- end -}}
