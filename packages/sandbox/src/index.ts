// Public API of @rayjob/sandbox: an in-memory Kubernetes API server and the sandbox that composes it
// with node-side components.
export { startApiServer } from './apiserver/server.ts';
export type { ApiServer, ApiServerOptions } from './apiserver/server.ts';
export { startSandbox, registerDefaultComponent } from './sandbox.ts';
export type { Sandbox, SandboxOptions, SandboxComponent, SandboxComponentContext, StartedComponent } from './sandbox.ts';
export { kubeconfigYaml } from './apiserver/kubeconfig.ts';
export { microNow, timeNow } from './apiserver/microtime.ts';
export type { KubeObject, ObjectMeta, OwnerReference } from './store/types.ts';
