// The validating admission plugins in kube-apiserver's order (PodSecurity, ValidatingAdmissionPolicy,
// ResourceQuota last, so a refused request never consumes quota). Requests from outside (HTTP) pass through it;
// the server's own writes (garbage collector, namespace cleanup, status upkeep) do not, as loopback writes of
// kube-controller-manager would be admitted as a privileged user anyway.
import type { ApiContext } from '../../storage/context.ts';
import { admitPodSecurity } from './pod-security.ts';
import type { Admit } from '../request.ts';
import { admitResourceQuota } from './resource-quota.ts';
import { admitValidatingPolicies } from './validating-policy.ts';

export function createAdmission(ctx: ApiContext): Admit {
  return (request) => {
    admitPodSecurity(ctx, request);
    admitValidatingPolicies(ctx, request);
    admitResourceQuota(ctx, request);
  };
}
