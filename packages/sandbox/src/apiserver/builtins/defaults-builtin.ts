// Defaults the real API server fills in for the built-in kinds we serve (the ones tools read back).
import type { KubeObject } from '../../store/types.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

function defaultContainer(c: Obj): void {
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  if (c.imagePullPolicy === undefined) {
    const image = String(c.image ?? '');
    const tagged = /:[^/]+$/.test(image) && !image.endsWith(':latest');
    c.imagePullPolicy = tagged || image.includes('@') ? 'IfNotPresent' : 'Always';
  }
  c.resources ??= {};
  for (const p of arr(c.ports)) p.protocol ??= 'TCP';
}

export function defaultPodSpec(spec: Obj): void {
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  for (const c of arr(spec.containers)) defaultContainer(c);
  for (const c of arr(spec.initContainers)) defaultContainer(c);
  for (const v of arr(spec.volumes)) {
    const cm = o(v.configMap);
    if (v.configMap) cm.defaultMode ??= 420;
    if (v.secret) o(v.secret).defaultMode ??= 420;
  }
}

export function defaultPod(pod: KubeObject): void {
  pod.spec ??= {};
  const spec = o(pod.spec);
  defaultPodSpec(spec);
  // What admission adds to pods (not to templates): service account, priority, service links.
  spec.enableServiceLinks ??= true;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  spec.priority ??= 0;
  if (spec.serviceAccountName === undefined) spec.serviceAccountName = (spec.serviceAccount as string) ?? 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
}

export function preparePodCreate(pod: KubeObject): void {
  const spec = o(pod.spec);
  const requests = arr(spec.containers).some((c) => Object.keys(o(o(c.resources).requests)).length > 0);
  pod.status = { phase: 'Pending', qosClass: requests ? 'Burstable' : 'BestEffort' };
}

export function defaultJob(job: KubeObject): void {
  job.spec ??= {};
  const spec = o(job.spec);
  spec.parallelism ??= 1;
  if (spec.completions === undefined && spec.completionMode !== 'Indexed') spec.completions = 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= 'TerminatingOrFailed';
  spec.manualSelector ??= undefined;
  if (spec.manualSelector === undefined) delete spec.manualSelector;
  spec.template ??= {};
  const template = o(spec.template);
  template.spec ??= {};
  const podSpec = o(template.spec);
  podSpec.restartPolicy ??= 'Never';
  defaultPodSpec(podSpec);
}

/** The job controller's selector and template labels, which the real server adds on create. */
export function prepareJobCreate(job: KubeObject): void {
  const spec = o(job.spec);
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (spec.manualSelector !== true) {
    spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
    const template = o(spec.template);
    template.metadata ??= {};
    const meta = o(template.metadata);
    meta.labels = {
      ...o(meta.labels),
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': name,
      'controller-uid': uid,
      'job-name': name,
    };
  }
  job.status = {};
}

export function defaultService(svc: KubeObject): void {
  svc.spec ??= {};
  const spec = o(svc.spec);
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  spec.internalTrafficPolicy ??= 'Cluster';
  spec.ipFamilies ??= ['IPv4'];
  spec.ipFamilyPolicy ??= 'SingleStack';
  for (const p of arr(spec.ports)) {
    p.protocol ??= 'TCP';
    p.targetPort ??= p.port;
  }
}

let nextClusterIp = 10;
export function prepareServiceCreate(svc: KubeObject): void {
  const spec = o(svc.spec);
  if (spec.clusterIP === undefined && spec.type !== 'ExternalName') {
    const n = nextClusterIp++;
    spec.clusterIP = `10.96.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  }
  if (spec.clusterIP !== undefined) spec.clusterIPs ??= [spec.clusterIP];
  svc.status = { loadBalancer: {} };
}

export function prepareNamespaceCreate(ns: KubeObject): void {
  ns.spec = { finalizers: ['kubernetes'] };
  ns.status = { phase: 'Active' };
  ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name ?? '' };
}

export function defaultDeployment(d: KubeObject): void {
  d.spec ??= {};
  const spec = o(d.spec);
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
  const template = o(spec.template);
  template.spec ??= {};
  defaultPodSpec(o(template.spec));
}

export function defaultSecret(s: KubeObject): void {
  s.type ??= 'Opaque';
  // stringData is write-only: fold it into base64 data as the real server does.
  const stringData = o(s.stringData);
  if (s.stringData !== undefined) {
    const data = { ...o(s.data) };
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v)).toString('base64');
    s.data = data;
    delete s.stringData;
  }
}
