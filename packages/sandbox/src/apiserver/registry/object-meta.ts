// Server-owned metadata: names (incl. generateName), uid, timestamps, generation; and name validation.
import { randomUUID } from 'node:crypto';
import { semanticEqual } from '@rayjob/kube-model';
import type { KubeObject } from '../../store/types.ts';
import { invalidValue, requiredValue } from '../errors/field-errors.ts';
import { timeNow } from '../encodings/microtime.ts';
import type { StatusCause } from '../errors/status.ts';

const suffixAlphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function generateSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += suffixAlphabet[Math.floor(Math.random() * suffixAlphabet.length)];
  return s;
}

const subdomainRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function validateName(name: string | undefined, generateName: string | undefined): StatusCause[] {
  if (!name) {
    return generateName ? [] : [requiredValue('metadata.name', 'name or generateName is required')];
  }
  if (name.length > 253 || !subdomainRe.test(name)) {
    return [
      invalidValue(
        'metadata.name',
        name,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ),
    ];
  }
  return [];
}

/** RBAC objects' names (system:basic-user): any path segment, as kube-apiserver's ValidatePathSegmentName. */
export function validatePathSegmentName(name: string | undefined, generateName: string | undefined): StatusCause[] {
  if (!name) return generateName ? [] : [requiredValue('metadata.name', 'name or generateName is required')];
  if (name === '.' || name === '..') return [invalidValue('metadata.name', name, `may not be '${name}'`)];
  const bad = ['/', '%'].find((c) => name.includes(c));
  return bad ? [invalidValue('metadata.name', name, `may not contain '${bad}'`)] : [];
}

/** Fill server-owned fields on create. */
export function stampCreate(obj: KubeObject, now: number): void {
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${generateSuffix()}`;
  meta.uid = randomUUID();
  meta.creationTimestamp = timeNow(now);
  meta.generation = 1;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.resourceVersion;
  delete meta.selfLink;
  if (Array.isArray(meta.managedFields)) delete meta.managedFields;
}

/** Fields clients cannot change on update: carry them over from the stored object. */
export function keepServerMeta(next: KubeObject, old: KubeObject): void {
  const m = next.metadata;
  const om = old.metadata;
  m.uid = om.uid;
  m.creationTimestamp = om.creationTimestamp;
  m.generation = om.generation;
  m.name = om.name;
  if (om.namespace !== undefined) m.namespace = om.namespace;
  if (om.deletionTimestamp) m.deletionTimestamp = om.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (om.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = om.deletionGracePeriodSeconds;
  else delete m.deletionGracePeriodSeconds;
  if (om.generateName !== undefined) m.generateName = om.generateName;
}

/** Whether anything outside metadata and status changed: that (and only that) bumps generation. */
export function specChanged(next: KubeObject, old: KubeObject): boolean {
  const keys = new Set([...Object.keys(next), ...Object.keys(old)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    if (!deepEqual(next[k], old[k])) return true;
  }
  return false;
}

/** Semantic equality (key order ignored, an absent key equals undefined): @rayjob/kube-model's, one definition. */
export const deepEqual = semanticEqual;

export const clone = <T>(v: T): T => structuredClone(v);
