export { startRealRayHead, type RealRayHead, type RealRayHeadOptions } from './real-head/start-real-ray-head.ts';
export { provisionRay, rayVenvPath, type Provisioning } from './real-head/provision.ts';
export { realHeadFaults, findRayProcess, killRayProcess, type RealHeadFaults, type RayProcessRole } from './real-head/faults.ts';
export { listHeadProcesses, type HeadProcess } from './real-head/process-table.ts';
export { httpRequest, jsonBody, type HttpResult } from './probe/http.ts';
export { tailLogs, type TailResult, type TailFrame } from './probe/ws-tail.ts';
export { pollUntil } from './probe/deadline.ts';
