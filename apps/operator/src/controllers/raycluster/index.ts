import { rayClusterSettingsFromEnv } from '@rayjob/core';
import { rayClusterGates } from '../../config/feature-gates.ts';
import type { ControllerRegistration } from '../types.ts';
import { setupRayClusterController } from './controller.ts';

export { setupRayClusterController, parseIdleRequeueSeconds, RAY_POD_SELECTOR } from './controller.ts';
export type { RayClusterControllerOptions, RayClusterControllerHandle } from './controller.ts';
export { createRayClusterMetrics } from './metrics.ts';

const idle = { close: async () => {} };

/**
 * The RayCluster controller as the operator runs it; idle (no informers, no workers) with
 * `--enable-raycluster-controller=false`, when KubeRay's RayCluster controller owns the Pods.
 */
export function rayClusterController(env: Record<string, string | undefined> = process.env): ControllerRegistration {
  return {
    name: 'raycluster',
    setup(ctx) {
      if (!ctx.config.enableRayClusterController) return idle;
      return setupRayClusterController({
        client: ctx.client,
        manager: ctx.manager,
        informers: ctx.informers,
        settings: { ...rayClusterSettingsFromEnv(env), featureGates: rayClusterGates(ctx.config.featureGates), podDefaults: ctx.config.podDefaults },
        validation: { featureGates: ctx.config.settings.featureGates },
        managedBy: ctx.config.managedBy,
        concurrency: ctx.config.reconcileConcurrency,
        logger: ctx.logger,
        idleRequeueSeconds: env.RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV,
        enableMetrics: ctx.config.enableMetrics,
        features: { batchScheduler: ctx.config.batchScheduler, kubernetesWAS: ctx.config.featureGates.KubernetesWAS },
      });
    },
  };
}
