// Builds a Job's pod from its template the way the Kubernetes Job controller names and labels it.
import type { Job, Pod } from '../kube-objects/types.ts';
import { trackingFinalizer } from './decide.ts';

/** Kubernetes' random-suffix alphabet (no vowels, no look-alike digits). */
const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function randomSuffix(random: () => number, length = 5): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += suffixAlphabet[Math.floor(random() * suffixAlphabet.length) % suffixAlphabet.length];
  return out;
}

export function jobPodLabels(job: Job): Record<string, string> {
  const name = job.metadata.name ?? '';
  const uid = job.metadata.uid ?? '';
  return {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
}

export function buildJobPod(job: Job, random: () => number): Pod {
  const name = job.metadata.name ?? '';
  // Pod names are at most 63 characters: Kubernetes trims the base name to leave room for the suffix.
  const base = name.length > 57 ? name.slice(0, 57) : name;
  const template = job.spec.template;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${base}-${randomSuffix(random)}`,
      namespace: job.metadata.namespace,
      labels: { ...(template.metadata?.labels ?? {}), ...jobPodLabels(job) },
      annotations: { ...(template.metadata?.annotations ?? {}) },
      finalizers: [trackingFinalizer],
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name, uid: job.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: structuredClone(template.spec),
  };
}
