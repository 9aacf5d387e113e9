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

{{/*
The operator's image. A KubeRay values file names KubeRay's operator image; rendered as given, the pod would run
KubeRay's binary, which rejects this chart's rayjob-only arguments (or, worse, runs KubeRay under this release):
stop the install and say which key to change instead.
*/}}
{{- define "rayjob-operator.image" -}}
{{- $repository := .Values.image.repository -}}
{{- if regexMatch "(^|/)kuberay/operator$" (lower $repository) -}}
{{- fail (printf "image.repository %q is KubeRay's operator image (a KubeRay values file?): it does not run this chart's operator or take its arguments. Set image.repository=ghcr.io/rayjob/operator and image.tag=%s (or your registry's copy of them), or delete image from the values file to take the chart's default" $repository .Chart.AppVersion) -}}
{{- end -}}
{{- printf "%s:%v" $repository .Values.image.tag -}}
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
# patch (rayclusters) and pods/resize: not called by the operator, but held so it may grant them in the
# autoscaler's Role (the API server refuses a Role granting more than its creator holds).
- apiGroups: [ray.io]
  resources: [rayclusters]
  verbs: [get, list, watch, create, update, patch, delete]
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
- apiGroups: [""]
  resources: [pods/resize]
  verbs: [patch]
# The autoscaler's ServiceAccount, Role and RoleBinding of autoscaling RayClusters.
- apiGroups: [""]
  resources: [serviceaccounts]
  verbs: [get, create]
- apiGroups: [rbac.authorization.k8s.io]
  resources: [roles, rolebindings]
  verbs: [get, create]
- apiGroups: [events.k8s.io]
  resources: [events]
  verbs: [create, patch]
{{- end -}}

{{/* The watched namespaces, comma-separated: watchNamespace, else the release namespace with singleNamespaceInstall. */}}
{{- define "rayjob-operator.watchNamespaces" -}}
{{- if .Values.watchNamespace -}}
{{- join "," .Values.watchNamespace -}}
{{- else if .Values.singleNamespaceInstall -}}
{{- .Release.Namespace -}}
{{- end -}}
{{- end -}}

{{/* KubeRay's operator configuration file (config.ray.io/v1alpha1 Configuration) from the chart's values. */}}
{{- define "rayjob-operator.configFile" -}}
apiVersion: config.ray.io/v1alpha1
kind: Configuration
metricsAddr: ":8080"
probeAddr: ":8082"
enableLeaderElection: {{ .Values.leaderElectionEnabled }}
enableMetrics: {{ .Values.metrics.enabled }}
reconcileConcurrency: {{ .Values.reconcileConcurrency }}
useKubernetesProxy: {{ .Values.useKubernetesProxy }}
qps: {{ .Values.kubeClient.qps }}
burst: {{ .Values.kubeClient.burst }}
{{- with (include "rayjob-operator.watchNamespaces" .) }}
watchNamespace: {{ . | quote }}
{{- end }}
{{- if and .Values.logging.baseDir .Values.logging.fileName }}
logFile: {{ printf "%s/%s" .Values.logging.baseDir .Values.logging.fileName | quote }}
{{- end }}
logStdoutEncoder: {{ .Values.logging.stdoutEncoder | quote }}
logFileEncoder: {{ .Values.logging.fileEncoder | quote }}
{{- if .Values.batchScheduler.enabled }}
enableBatchScheduler: true
{{- end }}
{{- with .Values.batchScheduler.name }}
batchScheduler: {{ . | quote }}
{{- end }}
{{- with .Values.configuration.headSidecarContainers }}
headSidecarContainers:
{{- toYaml . | nindent 0 }}
{{- end }}
{{- with .Values.configuration.workerSidecarContainers }}
workerSidecarContainers:
{{- toYaml . | nindent 0 }}
{{- end }}
{{- with .Values.configuration.defaultContainerEnvs }}
defaultContainerEnvs:
{{- toYaml . | nindent 0 }}
{{- end }}
{{- with .Values.configuration.defaultPodAnnotations }}
defaultPodAnnotations:
{{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.configuration.defaultPodLabels }}
defaultPodLabels:
{{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
