{{/*
Names and labels. Every template takes the chart's root context (`.`) unless
it says otherwise; those that take a dict document its keys.
*/}}

{{/* The chart's name: nameOverride, else the chart name. */}}
{{- define "rex-lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The release-qualified name: fullnameOverride, else <release>-<name>, or the
release name alone when it already contains the chart name.
*/}}
{{- define "rex-lib.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
The name of one component's objects. dict: ctx, component. The chart's main
component ("server") keeps the plain fullname; others get a suffix
(reports: <fullname>-projector, <fullname>-migrate).
*/}}
{{- define "rex-lib.componentName" -}}
{{- $full := include "rex-lib.fullname" .ctx -}}
{{- if or (eq .component "server") (eq .component "") -}}
{{- $full -}}
{{- else -}}
{{- printf "%s-%s" ($full | trunc (int (sub 62 (len .component)))) .component | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* chart label value: name-version */}}
{{- define "rex-lib.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
Selector labels of one component. dict: ctx, component ("" for objects of
the whole chart). These never change after the first install (a Deployment's
selector is immutable).
*/}}
{{- define "rex-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "rex-lib.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
{{- with .component }}
app.kubernetes.io/component: {{ . }}
{{- end }}
{{- end -}}

{{/* Standard labels of one component's objects. dict: ctx, component. */}}
{{- define "rex-lib.labels" -}}
helm.sh/chart: {{ include "rex-lib.chart" .ctx }}
{{ include "rex-lib.selectorLabels" . }}
app.kubernetes.io/part-of: rex
{{- with .ctx.Chart.AppVersion }}
app.kubernetes.io/version: {{ . | quote }}
{{- end }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
{{- with .ctx.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The ServiceAccount the pods run as. */}}
{{- define "rex-lib.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "rex-lib.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
The fullname another rex chart of the same release gets (its default
fullname, computed as rex-lib.fullname does). dict: ctx, chart.
*/}}
{{- define "rex-lib.siblingFullname" -}}
{{- if contains .chart .ctx.Release.Name -}}
{{- .ctx.Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .ctx.Release.Name .chart | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/*
The gRPC address of another rex service: .Values.backends.<chart>.address when
set, else its headless Service in this release and namespace, as a dns:///
target so that clients resolve every pod and balance over them (round_robin).
dict: ctx, chart.
*/}}
{{- define "rex-lib.backendAddress" -}}
{{- $backend := index (.ctx.Values.backends | default dict) .chart | default dict -}}
{{- if $backend.address -}}
{{- $backend.address -}}
{{- else -}}
{{- $domain := include "rex-lib.setting" (dict "ctx" .ctx "path" "clusterDomain" "default" "cluster.local") | fromJson -}}
{{- printf "dns:///%s-headless.%s.svc.%s:%d" (include "rex-lib.siblingFullname" .) .ctx.Release.Namespace $domain.v (int ($backend.port | default 50051)) -}}
{{- end -}}
{{- end -}}
