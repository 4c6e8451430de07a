{{/*
The schema migration Job of a chart whose service owns a schema: a Helm hook
(pre-install, pre-upgrade) that runs the service image with `migrate` and
exits. It runs before any normal resource of the release exists, so it reads
only what the operator created beforehand (the service's database Secret —
`migrate` needs DATABASE_URL alone — and image pull Secrets) and runs as the
namespace's default ServiceAccount with no API token. With least-privilege
roles (`npm run admin -- database roles`) DATABASE_URL is the service's own role,
which owns its schema and migrates it. Values: migrations.* (enabled, hookWeight,
backoffLimit, activeDeadlineSeconds, resources, heapMiB, args).
*/}}
{{- define "rex-lib.migrationJob" -}}
{{- $ctx := . -}}
{{- $m := .Values.migrations -}}
{{- $selector := dict "ctx" $ctx "component" "migrate" -}}
{{- $db := include "rex-lib.databaseRef" $ctx | fromJson -}}
{{- $vals := dict "resources" $m.resources "heapMiB" ($m.heapMiB | default 0) "env" dict -}}
{{- $env := dict "LOG_LEVEL" (.Values.logLevel | default "info") "NODE_OPTIONS" (printf "--max-old-space-size=%s" (include "rex-lib.heapMiB" (dict "vals" $vals))) "OTEL_SDK_DISABLED" "true" -}}
{{- $secretEnv := list (dict "name" "DATABASE_URL" "secret" $db.secret "key" $db.key) -}}
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "rex-lib.componentName" $selector }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: {{ $m.hookWeight | toString | quote }}
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ $m.backoffLimit }}
  activeDeadlineSeconds: {{ $m.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        {{- include "rex-lib.labels" $selector | nindent 8 }}
    spec:
      restartPolicy: Never
      automountServiceAccountToken: false
      enableServiceLinks: false
      {{- with include "rex-lib.imagePullSecrets" $ctx }}
      {{- . | nindent 6 }}
      {{- end }}
      securityContext:
        {{- include "rex-lib.podSecurityContext" $ctx | nindent 8 }}
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: migrate
          image: {{ include "rex-lib.image" (dict "ctx" $ctx) | quote }}
          imagePullPolicy: {{ include "rex-lib.imagePullPolicy" $ctx }}
          args:
            {{- toYaml ($m.args | default (list "migrate")) | nindent 12 }}
          env:
            {{- include "rex-lib.envList" (dict "ctx" $ctx "vals" $vals "env" $env "secretEnv" $secretEnv) | nindent 12 }}
          resources:
            {{- toYaml $m.resources | nindent 12 }}
          securityContext:
            {{- include "rex-lib.containerSecurityContext" $ctx | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
{{- end -}}

{{/* The NetworkPolicy of the migration Job's pods: DNS and PostgreSQL out, nothing in. */}}
{{- define "rex-lib.migrationNetworkPolicy" -}}
{{- $egress := list (include "rex-lib.np.dnsEgress" . | fromJson) (include "rex-lib.np.databaseEgress" . | fromJson) -}}
{{- include "rex-lib.networkPolicy" (dict "ctx" . "component" "migrate" "ingress" list "egress" $egress) -}}
{{- end -}}
