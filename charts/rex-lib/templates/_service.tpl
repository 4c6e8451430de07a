{{/*
A ClusterIP Service. dict: ctx, component, name (default the fullname), ports
(list of {name, port, targetPort, appProtocol}), annotations, type.
*/}}
{{- define "rex-lib.service" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ .name | default (include "rex-lib.fullname" .ctx) }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
  {{- with .annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  type: {{ .type | default "ClusterIP" }}
  selector:
    {{- include "rex-lib.selectorLabels" $selector | nindent 4 }}
  ports:
    {{- range .ports }}
    - name: {{ .name }}
      port: {{ .port }}
      targetPort: {{ .targetPort | default .name }}
      protocol: TCP
      {{- with .appProtocol }}
      appProtocol: {{ . }}
      {{- end }}
    {{- end }}
{{- end -}}

{{/*
The headless Service of a gRPC service: one DNS A record per ready pod, so
that clients given dns:///<name>-headless...:<port> balance calls over every
pod (round_robin) instead of pinning one connection to one pod.
dict: ctx, component, name (default <fullname>-headless), port.
*/}}
{{- define "rex-lib.headlessService" -}}
{{- $selector := dict "ctx" .ctx "component" .component -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ .name | default (printf "%s-headless" (include "rex-lib.fullname" .ctx)) }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "rex-lib.labels" $selector | nindent 4 }}
spec:
  type: ClusterIP
  clusterIP: None
  publishNotReadyAddresses: false
  selector:
    {{- include "rex-lib.selectorLabels" $selector | nindent 4 }}
  ports:
    - name: grpc
      port: {{ .port }}
      targetPort: grpc
      protocol: TCP
      appProtocol: grpc
{{- end -}}
