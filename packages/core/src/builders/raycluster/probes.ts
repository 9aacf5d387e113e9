import type { Container } from '../../schema/index.ts';
import { parseGenericVersion, versionLessThan } from '../../validation/ray-version.ts';
import type { RayNodeType } from './ray-start.ts';

/**
 * KubeRay's liveness and readiness probes for the Ray container, each added only when the user left it unset.
 * Ray >= 2.53 has one HTTP health endpoint on the dashboard agent; older (or unparsable) versions get wget
 * checks of the raylet (and, on the head, of the GCS through the dashboard).
 */

const DEFAULT_AGENT_PORT = 52365;
const DEFAULT_DASHBOARD_PORT = 8265;

function portParam(params: Record<string, string>, key: string, fallback: number): number {
  const text = params[key];
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return fallback;
  const port = Number(text);
  return port >= -2147483648 && port <= 2147483647 ? port : fallback;
}

function supportsUnifiedHealthCheck(rayVersion: string | undefined): boolean {
  const parsed = parseGenericVersion(rayVersion ?? '');
  return parsed.ok && !versionLessThan(parsed.components, [2, 53, 0]);
}

const wget = (timeoutSeconds: number, port: number, path: string) =>
  `wget --tries 1 -T ${timeoutSeconds} -q -O- http://localhost:${port}/${path} | grep success`;

export function withDefaultProbes(
  container: Container,
  nodeType: RayNodeType,
  params: Record<string, string>,
  rayVersion: string | undefined,
  creator: 'RayJob' | 'RayService' | 'RayCluster',
): Container {
  const agentPort = portParam(params, 'dashboard-agent-listen-port', DEFAULT_AGENT_PORT);
  const commands = [wget(2, agentPort, 'api/local_raylet_healthz')];
  if (nodeType === 'head') commands.push(wget(10, portParam(params, 'dashboard-port', DEFAULT_DASHBOARD_PORT), 'api/gcs_healthz'));
  const action = supportsUnifiedHealthCheck(rayVersion)
    ? { httpGet: { path: '/api/healthz', port: agentPort } }
    : { exec: { command: ['bash', '-c', commands.join(' && ')] } };
  const timeoutSeconds = nodeType === 'head' ? 5 : 2;
  const out: Container & { livenessProbe?: unknown; readinessProbe?: unknown } = { ...container };
  if (out.livenessProbe === undefined || out.livenessProbe === null) {
    out.livenessProbe = { initialDelaySeconds: 30, timeoutSeconds, periodSeconds: 5, successThreshold: 1, failureThreshold: 120, ...action };
  }
  if (out.readinessProbe === undefined || out.readinessProbe === null) {
    let readiness: Record<string, unknown> = { initialDelaySeconds: 10, timeoutSeconds, periodSeconds: 5, successThreshold: 1, failureThreshold: 10, ...action };
    if (creator === 'RayService' && nodeType === 'worker') {
      // Serving workers must also pass the Serve proxy check (KubeRay: failureThreshold 1, exec only).
      const servePort = (container.ports ?? []).find((p) => p.name === 'serve')?.containerPort ?? 8000;
      const { httpGet: _httpGet, ...rest } = readiness;
      readiness = { ...rest, failureThreshold: 1, exec: { command: ['bash', '-c', [...commands, wget(10, servePort, '-/healthz')].join(' && ')] } };
    }
    out.readinessProbe = readiness;
  }
  return out;
}
