// Public API of @rayjob/sandbox: an in-memory Kubernetes API server, and the sandbox that composes it
// with the node side (kubelet, pod network, cluster DNS, endpoints controller) and the Job controller.
export { startApiServer } from './apiserver/server.ts';
export type { ApiServer, ApiServerOptions } from './apiserver/server.ts';
export type { AuditEvent, AuditObjectRef, AuditSink } from './apiserver/audit.ts';
export { startSandbox } from './sandbox.ts';
export type { Sandbox, SandboxOptions, SandboxComponent, SandboxComponentContext, StartedComponent } from './sandbox.ts';
export { kubeconfigYaml } from './apiserver/kubeconfig.ts';
export { podLogPath } from './kubelet/log-paths.ts';
export { microNow, timeNow } from './apiserver/microtime.ts';
export type { KubeObject, ObjectMeta, OwnerReference } from './store/types.ts';
export type { ImageCatalog, ImageProgram, ImageProgramContext } from './kubelet/image-program.ts';
export type { SandboxNode, SandboxNodeOptions } from './kubelet/sandbox-node.ts';
export type { JobController } from './job-controller/index.ts';
export { rayEmulatorImage, realRayImage, rayShimDir } from './kubelet/ray-image.ts';
export { findRedisBin, redisImage, redisShimDir } from './kubelet/redis-image.ts';
export { startSandboxNode } from './kubelet/sandbox-node.ts';
export { startJobController } from './job-controller/index.ts';
export { startAppsControllers } from './apps-controllers/controller.ts';
export type { AppsControllers } from './apps-controllers/controller.ts';
export { createCertificateAuthority, issueCertificate, selfSignedCertificate } from './pki/x509.ts';
export type { CertificateAndKey, CertificateRequest } from './pki/x509.ts';
export { startNodeLifecycleController } from './node-lifecycle/controller.ts';
export type { NodeLifecycleController } from './node-lifecycle/controller.ts';
export type { NodeLifecycleTiming } from './node-lifecycle/decide.ts';
export { createClusterLookup } from './dns/index.ts';
export { deletePod, forceDeletePod, evictPod, oomKillContainer, rayHeadFault } from './faults/index.ts';
export { defaultImages, parseImageFlag, findRealRayBin, submitterImageName, operatorImageName } from './images/default-images.ts';
export { ociLayoutImage, imageLayoutFlag, type OciLayoutImageOptions } from './images/oci-layout-image.ts';
