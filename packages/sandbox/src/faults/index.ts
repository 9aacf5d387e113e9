export { deletePod, forceDeletePod, evictPod, oomKillContainer, rayHeadFault, rayFaultControlPort } from './faults.ts';
export type { FaultResult, RayHeadFault } from './faults.ts';
