{{/* Whether ServiceMonitors are wanted: metrics.serviceMonitor.enabled, else global.metrics.serviceMonitor.enabled, else false. */}}
{{- define "rex-lib.serviceMonitorEnabled" -}}
{{- (include "rex-lib.setting" (dict "ctx" . "path" "metrics.serviceMonitor.enabled" "default" false) | fromJson).v -}}
{{- end -}}

{{/* Whether PodMonitors are wanted: metrics.podMonitor.enabled, else global.metrics.podMonitor.enabled, else false. */}}
{{- define "rex-lib.podMonitorEnabled" -}}
{{- (include "rex-lib.setting" (dict "ctx" . "path" "metrics.podMonitor.enabled" "default" false) | fromJson).v -}}
{{- end -}}

{{/* Scrape settings shared by both monitor kinds. dict: ctx, kind ("serviceMonitor" or "podMonitor"). */}}
{{- define "rex-lib.scrapeEndpoint" -}}
{{- $interval := (include "rex-lib.setting" (dict "ctx" .ctx "path" (printf "metrics.%s.interval" .kind) "default" "30s") | fromJson).v -}}
{{- $timeout := (include "rex-lib.setting" (dict "ctx" .ctx "path" (printf "metrics.%s.scrapeTimeout" .kind) "default" "10s") | fromJson).v -}}
port: metrics
path: /metrics
scheme: http
interval: {{ $interval }}
scrapeTimeout: {{ $timeout }}
relabelings:
  - action: replace
    sourceLabels: [__meta_kubernetes_pod_name]
    targetLabel: pod
  - action: replace
    sourceLabels: [__meta_kubernetes_pod_label_app_kubernetes_io_component]
    targetLabel: component
{{- end -}}

{{/* Extra labels of a monitor (e.g. release: kube-prometheus-stack), so that the Prometheus' selector picks it. dict: ctx, kind. */}}
{{- define "rex-lib.monitorLabels" -}}
{{- $labels := (include "rex-lib.setting" (dict "ctx" .ctx "path" (printf "metrics.%s.labels" .kind) "default" dict) | fromJson).v -}}
{{- with $labels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* ServiceMonitor (monitoring.coreos.com/v1) of a component's Service. dict: ctx, component, name. */}}
{{- define "rex-lib.serviceMonitor" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ .name | default (include "rex-lib.componentName" $selector) }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
    {{- include "rex-lib.monitorLabels" (dict "ctx" .ctx "kind" "serviceMonitor") | indent 4 }}
spec:
  jobLabel: app.kubernetes.io/name
  namespaceSelector:
    matchNames:
      - {{ .ctx.Release.Namespace }}
  selector:
    matchLabels:
      {{- include "rex-lib.selectorLabels" $selector | nindent 6 }}
  endpoints:
    - {{- include "rex-lib.scrapeEndpoint" (dict "ctx" .ctx "kind" "serviceMonitor") | nindent 6 }}
{{- end -}}

{{/* PodMonitor (monitoring.coreos.com/v1) of a component's pods. dict: ctx, component, name. */}}
{{- define "rex-lib.podMonitor" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata:
  name: {{ .name | default (include "rex-lib.componentName" $selector) }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
    {{- include "rex-lib.monitorLabels" (dict "ctx" .ctx "kind" "podMonitor") | indent 4 }}
spec:
  jobLabel: app.kubernetes.io/name
  namespaceSelector:
    matchNames:
      - {{ .ctx.Release.Namespace }}
  selector:
    matchLabels:
      {{- include "rex-lib.selectorLabels" $selector | nindent 6 }}
  podMetricsEndpoints:
    - {{- include "rex-lib.scrapeEndpoint" (dict "ctx" .ctx "kind" "podMonitor") | nindent 6 }}
{{- end -}}
