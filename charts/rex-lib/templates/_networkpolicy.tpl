{{/*
NetworkPolicies. Each component gets one policy selecting its pods with both
policyTypes, so whatever its rules do not allow is denied. Rules are built
from the fragments below and passed as lists of rule maps.

Settings (the chart's networkPolicy.<key>, else global.networkPolicy.<key>):
  enabled      default true
  dns          {namespaceSelector, podSelector, cidrs}: where cluster DNS runs
  database     {port, cidrs, peers}: PostgreSQL
  monitoring   {namespaceSelector, podSelector}: who scrapes /metrics
  otlp         {port, cidrs, peers}: the OpenTelemetry collector (only when
               an OTLP endpoint is set)
A destination of {cidrs, peers} with both empty allows the port to any address.
*/}}

{{- define "rex-lib.networkPolicyEnabled" -}}
{{- (include "rex-lib.setting" (dict "ctx" . "path" "networkPolicy.enabled" "default" true) | fromJson).v -}}
{{- end -}}

{{/* A networkPolicy setting as JSON {"v": ...}. dict: ctx, key, default. */}}
{{- define "rex-lib.np.setting" -}}
{{- include "rex-lib.setting" (dict "ctx" .ctx "path" (printf "networkPolicy.%s" .key) "default" .default) -}}
{{- end -}}

{{/* Peers of a {cidrs, peers} destination, as JSON {"peers": [...]}. */}}
{{- define "rex-lib.np.peersOf" -}}
{{- $peers := list -}}
{{- range (.cidrs | default list) -}}{{- $peers = append $peers (dict "ipBlock" (dict "cidr" .)) -}}{{- end -}}
{{- range (.peers | default list) -}}{{- $peers = append $peers . -}}{{- end -}}
{{- dict "peers" $peers | toJson -}}
{{- end -}}

{{/* An egress rule to a {port, cidrs, peers} destination, as JSON. dict: destination, defaultPort. */}}
{{- define "rex-lib.np.egressTo" -}}
{{- $d := .destination | default dict -}}
{{- $rule := dict "ports" (list (dict "protocol" "TCP" "port" (int ($d.port | default .defaultPort)))) -}}
{{- $peers := (include "rex-lib.np.peersOf" $d | fromJson).peers -}}
{{- if $peers -}}{{- $_ := set $rule "to" $peers -}}{{- end -}}
{{- $rule | toJson -}}
{{- end -}}

{{/* Egress to cluster DNS (UDP and TCP 53). */}}
{{- define "rex-lib.np.dnsEgress" -}}
{{- $dns := (include "rex-lib.np.setting" (dict "ctx" . "key" "dns" "default" dict) | fromJson).v -}}
{{- $peer := dict "namespaceSelector" ($dns.namespaceSelector | default (dict "matchLabels" (dict "kubernetes.io/metadata.name" "kube-system"))) -}}
{{- $podSelector := $dns.podSelector | default (dict "matchLabels" (dict "k8s-app" "kube-dns")) -}}
{{- if $podSelector -}}{{- $_ := set $peer "podSelector" $podSelector -}}{{- end -}}
{{- $peers := list $peer -}}
{{- range ($dns.cidrs | default list) -}}{{- $peers = append $peers (dict "ipBlock" (dict "cidr" .)) -}}{{- end -}}
{{- dict "to" $peers "ports" (list (dict "protocol" "UDP" "port" 53) (dict "protocol" "TCP" "port" 53)) | toJson -}}
{{- end -}}

{{/* Egress to PostgreSQL. */}}
{{- define "rex-lib.np.databaseEgress" -}}
{{- $db := (include "rex-lib.np.setting" (dict "ctx" . "key" "database" "default" dict) | fromJson).v -}}
{{- include "rex-lib.np.egressTo" (dict "destination" $db "defaultPort" 5432) -}}
{{- end -}}

{{/* Egress to the OTLP collector, or {} when no OTLP endpoint is set. */}}
{{- define "rex-lib.np.otlpEgress" -}}
{{- $endpoint := (include "rex-lib.setting" (dict "ctx" . "path" "otel.endpoint" "default" "") | fromJson).v -}}
{{- if $endpoint -}}
{{- $otlp := (include "rex-lib.np.setting" (dict "ctx" . "key" "otlp" "default" dict) | fromJson).v -}}
{{- include "rex-lib.np.egressTo" (dict "destination" $otlp "defaultPort" 4318) -}}
{{- else -}}
{{- dict | toJson -}}
{{- end -}}
{{- end -}}

{{/* Ingress to the metrics port from the monitoring namespace. */}}
{{- define "rex-lib.np.metricsIngress" -}}
{{- $m := (include "rex-lib.np.setting" (dict "ctx" . "key" "monitoring" "default" dict) | fromJson).v -}}
{{- $peer := dict "namespaceSelector" ($m.namespaceSelector | default (dict "matchLabels" (dict "kubernetes.io/metadata.name" "monitoring"))) -}}
{{- with $m.podSelector }}{{- $_ := set $peer "podSelector" . -}}{{- end -}}
{{- dict "from" (list $peer) "ports" (list (dict "protocol" "TCP" "port" "metrics")) | toJson -}}
{{- end -}}

{{/* The pods of another rex chart of this release, as a peer. dict: ctx, chart, component. */}}
{{- define "rex-lib.np.podPeer" -}}
{{- dict "podSelector" (dict "matchLabels" (dict "app.kubernetes.io/name" .chart "app.kubernetes.io/instance" .ctx.Release.Name "app.kubernetes.io/component" .component)) | toJson -}}
{{- end -}}

{{/*
A NetworkPolicy. dict: ctx, component, name, ingress (list of rules), egress
(list of rules). Empty rules ({}) are dropped.
*/}}
{{- define "rex-lib.networkPolicy" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
{{- $ingress := list -}}{{- range .ingress -}}{{- if . -}}{{- $ingress = append $ingress . -}}{{- end -}}{{- end -}}
{{- $egress := list -}}{{- range .egress -}}{{- if . -}}{{- $egress = append $egress . -}}{{- end -}}{{- end -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ .name | default (include "rex-lib.componentName" $selector) }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "rex-lib.selectorLabels" $selector | nindent 6 }}
  policyTypes:
    - Ingress
    - Egress
  {{- if $ingress }}
  ingress:
    {{- toYaml $ingress | nindent 4 }}
  {{- else }}
  ingress: []
  {{- end }}
  {{- if $egress }}
  egress:
    {{- toYaml $egress | nindent 4 }}
  {{- else }}
  egress: []
  {{- end }}
{{- end -}}
