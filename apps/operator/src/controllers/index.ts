import { rayClusterController } from './raycluster/controller.ts';
import { rayJobController } from './rayjob/controller.ts';
import type { ControllerRegistration } from './types.ts';

/**
 * Every controller the operator runs, in start order. Register a controller by adding its registration here
 * (the RayCluster controller lives in ./raycluster/, the RayJob controller in ./rayjob/). The RayJob controller
 * does not depend on who turns a RayCluster into pods: it observes the head pod and the RayCluster's status.
 * The RayCluster controller stays idle with `--enable-raycluster-controller=false` (KubeRay's runs beside us).
 */
export const controllers: ControllerRegistration[] = [rayClusterController(), rayJobController()];

export type { ControllerContext, ControllerRegistration, StartedController } from './types.ts';
