{{- define "rayjob-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "rayjob-operator.fullname" -}}
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

{{- define "rayjob-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "rayjob-operator.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "rayjob-operator.labels" -}}
app.kubernetes.io/name: {{ include "rayjob-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "rayjob-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "rayjob-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The rules the operator needs: only the verbs its code uses (see deploy/README.md). */}}
{{- define "rayjob-operator.rules" -}}
- apiGroups: [ray.io]
  resources: [rayjobs]
  verbs: [get, list, watch, patch, delete]
- apiGroups: [ray.io]
  resources: [rayjobs/status, rayclusters/status]
  verbs: [update]
- apiGroups: [ray.io]
  resources: [rayjobs/finalizers, rayclusters/finalizers]
  verbs: [update]
- apiGroups: [ray.io]
  resources: [rayclusters]
  verbs: [get, list, watch, create, update, delete]
- apiGroups: [batch]
  resources: [jobs]
  verbs: [get, list, watch, create, delete]
- apiGroups: [""]
  resources: [pods]
  verbs: [get, list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [services]
  verbs: [get, list, watch, create, update]
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, create]
- apiGroups: [""]
  resources: [configmaps]
  verbs: [create, get, patch]
- apiGroups: [""]
  resources: [services/proxy]
  verbs: [get, create]
- apiGroups: [events.k8s.io]
  resources: [events]
  verbs: [create, patch]
{{- end -}}
