// What a validating admission plugin sees of one write (kube-apiserver's admission.Attributes), and the
// 403 every plugin answers with: `<resource> "<name>" is forbidden: <reason>` (admission.NewForbidden).
import type { KubeObject } from '../../store/types.ts';
import type { UserInfo } from '../auth/authenticate.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { ApiError, forbidden, qualified } from '../errors/status.ts';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionRequest {
  operation: AdmissionOperation;
  rt: ResourceType;
  /** '' for cluster-scoped objects. */
  namespace: string;
  /** The object's name (a generateName has been resolved already, as on a real server). */
  name: string;
  subresource?: string;
  /** The object as it would be stored (absent on DELETE). */
  object?: KubeObject;
  /** The stored object (UPDATE and DELETE). */
  oldObject?: KubeObject;
  user: UserInfo;
  dryRun: boolean;
  /** Warning headers for the response (PodSecurity's warn mode). */
  warnings?: string[];
}

/** Runs every validating admission plugin; throws the first refusal. */
export type Admit = (request: AdmissionRequest) => void;

export function admissionForbidden(request: Pick<AdmissionRequest, 'rt' | 'name'>, reason: string): ApiError {
  const { rt, name } = request;
  const error = forbidden(`${qualified(rt.plural, rt.group)} "${name}" is forbidden: ${reason}`);
  error.status.details = { name, ...(rt.group !== '' && { group: rt.group }), kind: rt.plural };
  return error;
}
