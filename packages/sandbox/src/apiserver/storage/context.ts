// Shared state of one API server: the store, the resource registry and server-wide settings.
// Handlers, the garbage collector and the CRD installer all work through this.
import type { OwnerIndex } from '../../store/owner-index.ts';
import type { Store } from '../../store/store.ts';
import type { Admit } from '../admission/request.ts';
import type { AuditSink } from '../audit/audit-event.ts';
import type { TokenIssuer } from '../auth/service-account-tokens.ts';
import type { Registry } from '../registry/resource-types.ts';

export interface ApiContext {
  store: Store;
  registry: Registry;
  owners: OwnerIndex;
  now(): number;
  /** When true (a kubelet runs), deleting a scheduled, running pod is graceful; otherwise immediate. */
  podGracefulDeletion: boolean;
  /** State directory (kubeconfig). */
  dir: string;
  /** Signs and checks ServiceAccount tokens. */
  tokens: TokenIssuer;
  /** How the server reaches kubelets for logs and exec (client certificate, CA). */
  kubeletClient?: KubeletClientTls;
  /** Receives one audit event per request (kube-apiserver's audit log). */
  audit?: AuditSink;
  /** Validating admission (PodSecurity, ValidatingAdmissionPolicy, ResourceQuota) for requests from clients. */
  admit?: Admit;
}

/** The API server's TLS identity toward kubelets (--kubelet-client-certificate/-key, --kubelet-certificate-authority). */
export interface KubeletClientTls {
  cert?: string;
  key?: string;
  /** CA to verify kubelet serving certificates with; without it they are not verified (kube-apiserver's default). */
  ca?: string;
}
