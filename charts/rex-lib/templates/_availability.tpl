{{/*
PodDisruptionBudget of one component: maxUnavailable (default 1), which never
blocks draining a node that holds the only replica (minAvailable 1 would).
dict: ctx, vals, component, name.
*/}}
{{- define "rex-lib.pdb" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
{{- $pdb := .vals.pdb | default dict -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ .name | default (include "rex-lib.componentName" $selector) }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
spec:
  maxUnavailable: {{ $pdb.maxUnavailable | default 1 }}
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      {{- include "rex-lib.selectorLabels" $selector | nindent 6 }}
{{- end -}}

{{/*
HorizontalPodAutoscaler (autoscaling/v2) on CPU utilisation of the requests,
optionally memory. dict: ctx, vals (autoscaling.*), component, name (of the
HPA and of the Deployment it scales).
*/}}
{{- define "rex-lib.hpa" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
{{- $a := .vals.autoscaling -}}
{{- $name := .name | default (include "rex-lib.componentName" $selector) -}}
{{- if gt (int $a.minReplicas) (int $a.maxReplicas) -}}
{{- fail (printf "autoscaling.minReplicas (%d) exceeds autoscaling.maxReplicas (%d)" (int $a.minReplicas) (int $a.maxReplicas)) -}}
{{- end -}}
{{- if not (dig "requests" "cpu" "" (.vals.resources | default dict)) -}}
{{- fail "autoscaling on CPU needs resources.requests.cpu (utilisation is measured against it)" -}}
{{- end -}}
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ $name }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ $name }}
  minReplicas: {{ $a.minReplicas }}
  maxReplicas: {{ $a.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ $a.targetCPUUtilizationPercentage }}
    {{- with $a.targetMemoryUtilizationPercentage }}
    - type: Resource
      resource:
        name: memory
        target:
          type: Utilization
          averageUtilization: {{ . }}
    {{- end }}
  behavior:
    scaleDown:
      stabilizationWindowSeconds: {{ $a.scaleDownStabilizationSeconds | default 300 }}
{{- end -}}

{{/* The ServiceAccount of the chart's pods; no API token is mounted (the services never call the Kubernetes API). */}}
{{- define "rex-lib.serviceAccount" -}}
{{- if .Values.serviceAccount.create -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "rex-lib.serviceAccountName" . }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" (dict "ctx" . "component" "") | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end -}}
{{- end -}}
