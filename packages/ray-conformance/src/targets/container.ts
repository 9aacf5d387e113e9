/**
 * Ray in a container (rayproject/ray, KubeRay's head command), through testcontainers.
 * Used only where a Docker engine exists; `dockerAvailability()` says why not otherwise.
 */
import { existsSync } from 'node:fs';
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import type { Target } from '../conformance/target.ts';

export const rayContainerImage = 'rayproject/ray:2.55.1';
const dashboardPort = 8265;

export type DockerAvailability = { kind: 'available' } | { kind: 'absent'; reason: string };

export async function dockerAvailability(): Promise<DockerAvailability> {
  const socket = '/var/run/docker.sock';
  if (!process.env.DOCKER_HOST && !existsSync(socket)) {
    return { kind: 'absent', reason: `no Docker engine (no ${socket} and DOCKER_HOST unset)` };
  }
  try {
    const client = await getContainerRuntimeClient();
    await client.info;
    return { kind: 'available' };
  } catch (error) {
    return { kind: 'absent', reason: `no usable Docker engine: ${(error as Error).message}` };
  }
}

/** Kills, inside the container, every process whose command line starts with `prefix`. */
function killInside(container: StartedTestContainer, pattern: string): Promise<void> {
  // /proc instead of ps/pkill: the image is not guaranteed to ship procps.
  const script = `for p in /proc/[0-9]*; do c=$(tr '\\0' ' ' < $p/cmdline 2>/dev/null); case "$c" in ${pattern}) kill -9 \${p#/proc/};; esac; done`;
  return container.exec(['bash', '-c', script]).then(() => undefined);
}

export type ContainerTarget = Target & { container: StartedTestContainer };

export async function startContainerTarget(): Promise<ContainerTarget> {
  const container = await new GenericContainer(rayContainerImage)
    .withCommand(['ray', 'start', '--head', '--block', '--dashboard-host=0.0.0.0', '--num-cpus=2', '--disable-usage-stats'])
    .withEnvironment({ RAY_USAGE_STATS_ENABLED: '0' })
    .withExposedPorts(dashboardPort)
    .withSharedMemorySize(512 * 1024 * 1024)
    .withWaitStrategy(Wait.forHttp('/api/gcs_healthz', dashboardPort).forStatusCode(200))
    .withStartupTimeout(300_000)
    .start();
  return {
    kind: 'container',
    url: `http://${container.getHost()}:${container.getMappedPort(dashboardPort)}`,
    container,
    faults: {
      restartJobHead: () => killInside(container, "'ray-dashboard-JobHead-'*"),
      killAgent: () => killInside(container, "'ray::DashboardAgent'*"),
      stopDashboard: () => killInside(container, "*'ray/dashboard/dashboard.py'*"),
    },
    stop: async () => {
      await container.stop();
    },
  };
}
