{{/*
Probe handlers. gRPC services answer grpc.health.v1: "" (overall) is SERVING
while the process lives; the named service once its database is reachable and
migrated. dict: port, service (the named health service).
Returns JSON {startup, liveness, readiness}.
*/}}
{{- define "rex-lib.grpcProbeHandlers" -}}
{{- $overall := dict "grpc" (dict "port" (int .port) "service" "") -}}
{{- $named := dict "grpc" (dict "port" (int .port) "service" .service) -}}
{{- dict "startup" $overall "liveness" $overall "readiness" $named | toJson -}}
{{- end -}}

{{/* HTTP probe handlers of the gateway: /healthz (alive) and /readyz (database reachable, not stopping). dict: port (name or number). */}}
{{- define "rex-lib.httpProbeHandlers" -}}
{{- $live := dict "httpGet" (dict "path" "/healthz" "port" .port) -}}
{{- $ready := dict "httpGet" (dict "path" "/readyz" "port" .port) -}}
{{- dict "startup" $live "liveness" $live "readiness" $ready | toJson -}}
{{- end -}}

{{/* Pod securityContext: non-root 10001, RuntimeDefault seccomp. */}}
{{- define "rex-lib.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Container securityContext: non-root, read-only root filesystem, no privilege escalation, no capabilities. */}}
{{- define "rex-lib.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/*
A Deployment of one component. dict:
  ctx            the chart's root context
  vals           the role's values (replicaCount, autoscaling, resources, heapMiB,
                 probes, terminationGracePeriodSeconds, preStopSleepSeconds, env,
                 secretEnv, podAnnotations, podLabels, nodeSelector, tolerations,
                 affinity, priorityClassName, topologySpread, tmpSizeLimit, ...)
  component      app.kubernetes.io/component (selector)
  name           the Deployment's name (default rex-lib.componentName)
  containerName  default the chart name
  ports          list of {name, containerPort}
  probes         JSON-decoded {startup, liveness, readiness} handlers
  env            map of plain variables (the chart's computed ones)
  secretEnv      list of {name, secret, key}
  volumes, volumeMounts   extra (an emptyDir at /tmp is always there)
  strategy       optional Deployment strategy (default RollingUpdate 0/1)
  replicas       optional fixed replica count (ignores autoscaling)
  annotations    extra pod annotations (e.g. checksums)
*/}}
{{- define "rex-lib.deployment" -}}
{{- $ctx := .ctx -}}
{{- $vals := .vals -}}
{{- $component := .component -}}
{{- $name := .name | default (include "rex-lib.componentName" (dict "ctx" $ctx "component" $component)) -}}
{{- $selector := dict "ctx" $ctx "component" $component -}}
{{- $probeValues := $vals.probes | default dict -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
spec:
  {{- if not (kindIs "invalid" .replicas) }}
  replicas: {{ .replicas }}
  {{- else if not (and $vals.autoscaling $vals.autoscaling.enabled) }}
  replicas: {{ $vals.replicaCount }}
  {{- end }}
  revisionHistoryLimit: {{ $vals.revisionHistoryLimit | default 5 }}
  selector:
    matchLabels:
      {{- include "rex-lib.selectorLabels" $selector | nindent 6 }}
  strategy:
    {{- if .strategy }}
    {{- toYaml .strategy | nindent 4 }}
    {{- else }}
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
    {{- end }}
  template:
    metadata:
      labels:
        {{- include "rex-lib.labels" $selector | nindent 8 }}
        {{- with $vals.podLabels }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- $annotations := merge (deepCopy ($vals.podAnnotations | default dict)) (.annotations | default dict) }}
      {{- with $annotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "rex-lib.serviceAccountName" $ctx }}
      automountServiceAccountToken: false
      enableServiceLinks: false
      {{- with include "rex-lib.imagePullSecrets" $ctx }}
      {{- . | nindent 6 }}
      {{- end }}
      {{- with $vals.priorityClassName }}
      priorityClassName: {{ . }}
      {{- end }}
      terminationGracePeriodSeconds: {{ $vals.terminationGracePeriodSeconds }}
      securityContext:
        {{- include "rex-lib.podSecurityContext" $ctx | nindent 8 }}
      {{- if (dig "enabled" true ($vals.topologySpread | default dict)) }}
      topologySpreadConstraints:
        {{- range $key := list "kubernetes.io/hostname" "topology.kubernetes.io/zone" }}
        - maxSkew: {{ dig "maxSkew" 1 ($vals.topologySpread | default dict) }}
          topologyKey: {{ $key }}
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "rex-lib.selectorLabels" $selector | nindent 14 }}
          matchLabelKeys:
            - pod-template-hash
        {{- end }}
      {{- end }}
      {{- with $vals.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $vals.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $vals.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: {{ .containerName | default $ctx.Chart.Name }}
          image: {{ include "rex-lib.image" (dict "ctx" $ctx) | quote }}
          imagePullPolicy: {{ include "rex-lib.imagePullPolicy" $ctx }}
          {{- with .args }}
          args:
            {{- toYaml . | nindent 12 }}
          {{- end }}
          ports:
            {{- range .ports }}
            - name: {{ .name }}
              containerPort: {{ .containerPort }}
              protocol: TCP
            {{- end }}
          env:
            {{- include "rex-lib.envList" (dict "ctx" $ctx "vals" $vals "env" .env "secretEnv" .secretEnv) | nindent 12 }}
          {{- range $kind := list "startup" "liveness" "readiness" }}
          {{- $timing := index $probeValues $kind | default dict }}
          {{- if dig "enabled" true $timing }}
          {{ $kind }}Probe:
            {{- toYaml (index $.probes $kind) | nindent 12 }}
            {{- with (omit $timing "enabled") }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          {{- end }}
          {{- end }}
          lifecycle:
            preStop:
              sleep:
                seconds: {{ $vals.preStopSleepSeconds }}
          resources:
            {{- toYaml $vals.resources | nindent 12 }}
          securityContext:
            {{- include "rex-lib.containerSecurityContext" $ctx | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
            {{- with .volumeMounts }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: {{ $vals.tmpSizeLimit | default "64Mi" }}
        {{- with .volumes }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
{{- end -}}
