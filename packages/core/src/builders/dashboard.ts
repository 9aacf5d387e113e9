import type { RayCluster, RayJob, Service } from '../schema/index.ts';

export const DEFAULT_DASHBOARD_PORT = 8265;

/** The name of a RayCluster's own head Service: headService.metadata.name if set, else `<cluster>-head-svc`. */
export function clusterHeadServiceName(cluster: Pick<RayCluster, 'metadata' | 'spec'>): string {
  return cluster.spec?.headGroupSpec?.headService?.metadata?.name || `${cluster.metadata.name}-head-svc`;
}

export type DashboardURLResult = { ok: true; url: string } | { ok: false; error: string };

/**
 * `<svc>.<ns>.svc.<domain>:<port>` (no scheme), from the cluster head Service's port named `dashboard`, as
 * KubeRay writes status.dashboardURL.
 */
export function dashboardURLFromService(service: Service, clusterDomain: string): DashboardURLResult {
  const port = service.spec?.ports?.find((p) => p.name === 'dashboard')?.port;
  if (!port) return { ok: false, error: 'dashboard port is not found' };
  const ns = service.metadata.namespace ?? 'default';
  return { ok: true, url: `${service.metadata.name}.${ns}.svc.${clusterDomain}:${port}` };
}

/** `http://` + the dashboard URL unless it already has a scheme (KubeRay's submitter address rule). */
export function dashboardAddress(dashboardURL: string): string {
  return /^https?:\/\//.test(dashboardURL) ? dashboardURL : `http://${dashboardURL}`;
}

/** The head container's port named `dashboard`, 8265 when absent (SidecarMode talks to it on 127.0.0.1). */
export function headDashboardPort(rayJob: RayJob): number {
  const head = rayJob.spec.rayClusterSpec?.headGroupSpec.template.spec?.containers?.[0];
  return head?.ports?.find((p) => p.name === 'dashboard')?.containerPort ?? DEFAULT_DASHBOARD_PORT;
}
