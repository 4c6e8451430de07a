{{/*
rex-lib.setting: a value shared through `global`. dict: ctx, path (dot
separated, e.g. "database.existingSecret"), default, and optionally values
(the values to look in first; default ctx.Values). The chart's own value wins
when it is set (an absent key, null, "" or an empty list or map is not set;
false and 0 are), else the same path under ctx.Values.global, else default.
Returns JSON {"v": value}: use (include "rex-lib.setting" (dict ...) | fromJson).v
*/}}
{{- define "rex-lib.setting" -}}
{{- $found := false -}}
{{- $value := .default -}}
{{- $own := .values | default .ctx.Values -}}
{{- range $root := list $own ($.ctx.Values.global | default dict) -}}
{{- if not $found -}}
{{- $current := $root -}}
{{- $present := true -}}
{{- range $key := splitList "." $.path -}}
{{- if and $present (kindIs "map" $current) (hasKey $current $key) -}}
{{- $current = index $current $key -}}
{{- else -}}
{{- $present = false -}}
{{- end -}}
{{- end -}}
{{- if $present -}}
{{- if kindIs "invalid" $current -}}
{{- else if and (kindIs "string" $current) (eq $current "") -}}
{{- else if and (or (kindIs "slice" $current) (kindIs "map" $current)) (eq (len $current) 0) -}}
{{- else -}}
{{- $found = true -}}
{{- $value = $current -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- dict "v" $value | toJson -}}
{{- end -}}

{{/*
A scalar as an environment variable's text: whole numbers without an
exponent (YAML numbers reach templates as float64: 1000000 would print 1e+06).
*/}}
{{- define "rex-lib.str" -}}
{{- if or (kindIs "float64" .) (kindIs "float32" .) -}}
{{- if eq (float64 .) (float64 (int64 .)) -}}{{- int64 . -}}{{- else -}}{{- . -}}{{- end -}}
{{- else -}}
{{- toString . -}}
{{- end -}}
{{- end -}}

{{/*
The container image: <registry>/<repository>[:<tag>][@<digest>]. registry:
image.registry, else global.image.registry; repository: image.repository, else
rex-<chart name>; tag: image.tag, else global.image.tag, else the appVersion.
dict: ctx, and optionally chart (the repository suffix, default the chart name).
*/}}
{{- define "rex-lib.image" -}}
{{- $ctx := .ctx -}}
{{- $registry := (include "rex-lib.setting" (dict "ctx" $ctx "path" "image.registry" "default" "") | fromJson).v -}}
{{- $repository := $ctx.Values.image.repository | default (printf "rex-%s" (.chart | default $ctx.Chart.Name)) -}}
{{- $tag := (include "rex-lib.setting" (dict "ctx" $ctx "path" "image.tag" "default" $ctx.Chart.AppVersion) | fromJson).v | toString -}}
{{- $digest := $ctx.Values.image.digest | default "" -}}
{{- $ref := $repository -}}
{{- if $registry -}}{{- $ref = printf "%s/%s" (trimSuffix "/" $registry) $repository -}}{{- end -}}
{{- if $tag -}}{{- $ref = printf "%s:%s" $ref $tag -}}{{- end -}}
{{- if $digest -}}{{- $ref = printf "%s@%s" $ref $digest -}}{{- end -}}
{{- $ref -}}
{{- end -}}

{{/* imagePullPolicy: image.pullPolicy, else global.image.pullPolicy, else IfNotPresent. */}}
{{- define "rex-lib.imagePullPolicy" -}}
{{- (include "rex-lib.setting" (dict "ctx" . "path" "image.pullPolicy" "default" "IfNotPresent") | fromJson).v -}}
{{- end -}}

{{/* imagePullSecrets (names of existing Secrets): the chart's, else global.imagePullSecrets. */}}
{{- define "rex-lib.imagePullSecrets" -}}
{{- $secrets := (include "rex-lib.setting" (dict "ctx" . "path" "imagePullSecrets" "default" list) | fromJson).v -}}
{{- if $secrets -}}
imagePullSecrets:
{{- range $secrets }}
  - name: {{ if kindIs "map" . }}{{ .name }}{{ else }}{{ . }}{{ end }}
{{- end }}
{{- end -}}
{{- end -}}

{{/*
A memory quantity in MiB (whole numbers with Ki, Mi, Gi, K, M, G or no suffix;
values.schema.json allows only these).
*/}}
{{- define "rex-lib.memoryMiB" -}}
{{- $q := toString . -}}
{{- if regexMatch "^[0-9]+Gi$" $q -}}{{- mul (trimSuffix "Gi" $q | int64) 1024 -}}
{{- else if regexMatch "^[0-9]+Mi$" $q -}}{{- trimSuffix "Mi" $q | int64 -}}
{{- else if regexMatch "^[0-9]+Ki$" $q -}}{{- div (trimSuffix "Ki" $q | int64) 1024 -}}
{{- else if regexMatch "^[0-9]+G$" $q -}}{{- div (mul (trimSuffix "G" $q | int64) 1000000000) 1048576 -}}
{{- else if regexMatch "^[0-9]+M$" $q -}}{{- div (mul (trimSuffix "M" $q | int64) 1000000) 1048576 -}}
{{- else if regexMatch "^[0-9]+[kK]$" $q -}}{{- div (mul (trimSuffix "k" (trimSuffix "K" $q) | int64) 1000) 1048576 -}}
{{- else if regexMatch "^[0-9]+$" $q -}}{{- div ($q | int64) 1048576 -}}
{{- else -}}{{- fail (printf "cannot read the memory quantity %q: write a whole number of Mi or Gi (e.g. 512Mi)" $q) -}}
{{- end -}}
{{- end -}}

{{/*
The V8 heap limit in MiB for NODE_OPTIONS=--max-old-space-size: heapMiB when
set (> 0), else 75% of resources.limits.memory, leaving the rest for buffers,
native memory and the runtime. dict: vals (the role's values).
*/}}
{{- define "rex-lib.heapMiB" -}}
{{- $limit := dig "limits" "memory" "" (.vals.resources | default dict) -}}
{{- if not $limit -}}{{- fail "resources.limits.memory is required: the heap size (NODE_OPTIONS) is derived from it" -}}{{- end -}}
{{- $limitMiB := include "rex-lib.memoryMiB" $limit | int64 -}}
{{- $heap := int64 (.vals.heapMiB | default 0) -}}
{{- if le $heap 0 -}}{{- $heap = div (mul $limitMiB 3) 4 -}}{{- end -}}
{{- if ge $heap $limitMiB -}}{{- fail (printf "heapMiB (%d) must be below the memory limit (%d MiB)" $heap $limitMiB) -}}{{- end -}}
{{- if lt $heap 64 -}}{{- fail (printf "the heap (%d MiB) is too small: raise resources.limits.memory or heapMiB" $heap) -}}{{- end -}}
{{- $heap -}}
{{- end -}}

{{/*
SHUTDOWN_TIMEOUT_MS: what is left of terminationGracePeriodSeconds after the
preStop sleep and a 5 s margin for the process to exit, so the kubelet never
has to SIGKILL a draining process. dict: vals.
*/}}
{{- define "rex-lib.shutdownTimeoutMs" -}}
{{- $grace := int64 .vals.terminationGracePeriodSeconds -}}
{{- $sleep := int64 .vals.preStopSleepSeconds -}}
{{- $left := sub (sub $grace $sleep) 5 -}}
{{- if lt $left 1 -}}
{{- fail (printf "terminationGracePeriodSeconds (%d) must exceed preStopSleepSeconds (%d) by more than 5 s" $grace $sleep) -}}
{{- end -}}
{{- mul $left 1000 -}}
{{- end -}}

{{/* The Secret holding INTERNAL_AUTH_SECRET: {"secret": name, "key": key}; fails when none is named. */}}
{{- define "rex-lib.internalAuthRef" -}}
{{- $name := (include "rex-lib.setting" (dict "ctx" . "path" "internalAuth.existingSecret" "default" "") | fromJson).v -}}
{{- $key := (include "rex-lib.setting" (dict "ctx" . "path" "internalAuth.key" "default" "internal-auth-secret") | fromJson).v -}}
{{- if not $name -}}
{{- fail "internalAuth.existingSecret (or global.internalAuth.existingSecret) is required: the name of a Secret holding the INTERNAL_AUTH_SECRET (32+ characters) every rex service shares" -}}
{{- end -}}
{{- dict "secret" $name "key" $key | toJson -}}
{{- end -}}

{{/* The Secret holding DATABASE_URL: {"secret": name, "key": key}; fails when none is named. */}}
{{- define "rex-lib.databaseRef" -}}
{{- $name := (include "rex-lib.setting" (dict "ctx" . "path" "database.existingSecret" "default" "") | fromJson).v -}}
{{- $key := (include "rex-lib.setting" (dict "ctx" . "path" "database.key" "default" "database-url") | fromJson).v -}}
{{- if not $name -}}
{{- fail "database.existingSecret (or global.database.existingSecret) is required: the name of a Secret holding the PostgreSQL connection string (DATABASE_URL)" -}}
{{- end -}}
{{- dict "secret" $name "key" $key | toJson -}}
{{- end -}}
