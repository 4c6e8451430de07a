{{/* A role's values: the role's block (query or projector) over the top-level values. dict: ctx, role. Returns JSON. */}}
{{- define "reports.roleValues" -}}
{{- $top := omit (deepCopy .ctx.Values) "query" "projector" -}}
{{- merge (deepCopy (index .ctx.Values .role)) $top | toJson -}}
{{- end -}}

{{/* The chart's own library ConfigMap (library.reports): JSON {name, data, items}; keys report-<n>.xml, items place them at their paths. */}}
{{- define "reports.libraryConfigMap" -}}
{{- $data := dict -}}{{- $items := list -}}
{{- range $i, $path := keys (.Values.library.reports | default dict) | sortAlpha -}}
{{- $key := printf "report-%d.xml" $i -}}
{{- $_ := set $data $key (index $.Values.library.reports $path) -}}
{{- $items = append $items (dict "key" $key "path" $path) -}}
{{- end -}}
{{- dict "name" (printf "%s-library" (include "rex-lib.fullname" .)) "data" $data "items" $items | toJson -}}
{{- end -}}

{{/* Library folders: JSON {dirs, volumes, mounts, checksum}. The chart's own folder (library.reports) comes first, then the existing ConfigMaps. */}}
{{- define "reports.library" -}}
{{- $dirs := list -}}{{- $volumes := list -}}{{- $mounts := list -}}
{{- $own := include "reports.libraryConfigMap" . | fromJson -}}
{{- if $own.items -}}
{{- $dirs = append $dirs "/etc/rex/reports/_values" -}}
{{- $volumes = append $volumes (dict "name" "library-values" "configMap" (dict "name" $own.name "items" $own.items)) -}}
{{- $mounts = append $mounts (dict "name" "library-values" "mountPath" "/etc/rex/reports/_values" "readOnly" true) -}}
{{- end -}}
{{- range $i, $cm := .Values.library.configMaps -}}
{{- $dir := printf "/etc/rex/reports/%s" $cm.name -}}
{{- $volume := dict "name" (printf "library-%d" $i) "configMap" (dict "name" $cm.name) -}}
{{- with $cm.items }}{{- $_ := set $volume.configMap "items" . -}}{{- end -}}
{{- $dirs = append $dirs $dir -}}
{{- $volumes = append $volumes $volume -}}
{{- $mounts = append $mounts (dict "name" (printf "library-%d" $i) "mountPath" $dir "readOnly" true) -}}
{{- end -}}
{{- $checksum := ternary (toJson $own.data | sha256sum) "" (not (empty $own.items)) -}}
{{- dict "dirs" $dirs "volumes" $volumes "mounts" $mounts "checksum" $checksum | toJson -}}
{{- end -}}

{{/* A role's environment (plain variables). dict: ctx, role, vals. */}}
{{- define "reports.env" -}}
{{- $ctx := .ctx -}}
{{- $name := include "rex-lib.componentName" (dict "ctx" $ctx "component" .role) -}}
{{- $env := include "rex-lib.commonEnv" (dict "ctx" $ctx "vals" .vals "serviceName" "reports" "deploymentName" $name) | fromJson -}}
{{- $_ := set $env "GRPC_HOST" "0.0.0.0" -}}
{{- $_ := set $env "GRPC_PORT" (include "rex-lib.str" $ctx.Values.service.port) -}}
{{- $_ := set $env "MIGRATE_ON_START" (ternary "false" "true" $ctx.Values.migrations.enabled) -}}
{{- $_ := set $env "PROJECTOR_ENABLED" (ternary "true" "false" (eq .role "projector")) -}}
{{- $_ := set $env "REPORTS_LIBRARY_DIRS" (join ":" (include "reports.library" $ctx | fromJson).dirs) -}}
{{- $env | toJson -}}
{{- end -}}

{{/* A role's variables from existing Secrets. dict: ctx, role. */}}
{{- define "reports.secretEnv" -}}
{{- $db := include "rex-lib.databaseRef" .ctx | fromJson -}}
{{- $auth := include "rex-lib.internalAuthRef" .ctx | fromJson -}}
{{- $list := list (dict "name" "DATABASE_URL" "secret" $db.secret "key" $db.key) (dict "name" "INTERNAL_AUTH_SECRET" "secret" $auth.secret "key" $auth.key) -}}
{{- $replica := .ctx.Values.database.readReplica | default dict -}}
{{- if and (eq .role "query") $replica.existingSecret -}}
{{- $list = append $list (dict "name" "REPORTS_DATABASE_URL" "secret" $replica.existingSecret "key" ($replica.key | default "database-url")) -}}
{{- end -}}
{{- dict "list" $list | toJson -}}
{{- end -}}

{{/* The Deployment of a role. dict: ctx, role. */}}
{{- define "reports.deployment" -}}
{{- $ctx := .ctx -}}
{{- $vals := include "reports.roleValues" . | fromJson -}}
{{- $probes := include "rex-lib.grpcProbeHandlers" (dict "port" $ctx.Values.service.port "service" "reports.v1.ReportsService") | fromJson -}}
{{- $library := include "reports.library" $ctx | fromJson -}}
{{- $args := dict
  "ctx" $ctx
  "vals" $vals
  "component" .role
  "containerName" (printf "reports-%s" .role)
  "ports" (list (dict "name" "grpc" "containerPort" (int $ctx.Values.service.port)) (dict "name" "metrics" "containerPort" (int $ctx.Values.metrics.port)))
  "probes" $probes
  "env" (include "reports.env" (dict "ctx" $ctx "role" .role "vals" $vals) | fromJson)
  "secretEnv" (include "reports.secretEnv" (dict "ctx" $ctx "role" .role) | fromJson).list
  "volumes" $library.volumes
  "volumeMounts" $library.mounts
-}}
{{- with $library.checksum -}}
{{- $_ := set $args "annotations" (dict "checksum/library" .) -}}
{{- end -}}
{{- if eq .role "projector" -}}
{{- /* One projector at a time: the old pod stops before the new one starts. */ -}}
{{- $_ := set $args "replicas" 1 -}}
{{- $_ := set $args "strategy" (dict "type" "Recreate") -}}
{{- end -}}
{{- include "rex-lib.deployment" $args -}}
{{- end -}}
