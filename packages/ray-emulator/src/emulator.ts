// startRayEmulator: composes the node table, job manager, tail hub and dashboard server, and exposes the
// fault knobs of ray-jobs-api.md §9 (emulator-faults.ts).
import { newSessionName } from './ids.ts';
import { createDashboardServer, type RecordedRequest } from './dashboard-server.ts';
import { createEmulatorFaults, newHeadFaultState, type HeadFaultState, type RayEmulatorFaults } from './emulator-faults.ts';
import { createJobManager, type JobManager } from './job-manager.ts';
import { createTailHub } from './log-tail-server.ts';
import { createNodeTable, type NodeTable } from './nodes.ts';
import { createFaultGate } from './request-gate.ts';
import type { DashboardState } from './routes.ts';
import { rayDefaultTiming, type EmulatorTiming } from './timing.ts';
import { rayFeatures, type RayFeatures } from './version.ts';

export interface RayEmulatorOptions {
  host?: string;
  /**
   * The head's IP in `/nodes` (and the driver's node address), as a real head reports its pod's IP. Default: the
   * bind host, 127.0.0.1 for a wildcard bind (a pod in its own network namespace binds 0.0.0.0: pass its IP).
   */
  nodeIp?: string;
  port?: number;
  rayVersion?: string;
  authToken?: string;
  timing?: Partial<EmulatorTiming>;
  shell?: string;
  cwd?: string;
  env?: Record<string, string>;
}

export interface RayEmulator {
  url: string;
  host: string;
  port: number;
  faults: RayEmulatorFaults;
  jobs(): Array<{ submissionId: string; status: string; pid?: number }>;
  addWorkerNode(opts?: { resources?: Record<string, number> }): string;
  /**
   * What the cluster's tasks and actors ask for and cannot get yet, as Ray's GCS reports it to the autoscaler
   * (e.g. `{ CPU: 3 }`). The emulator runs no tasks, so a test states the demand; the sandbox's autoscaler
   * stand-in reads it and scales the worker groups as Ray's autoscaler would.
   */
  resourceDemand(): Record<string, number>;
  setResourceDemand(demand: Record<string, number>): void;
  /** Requests seen so far (method, path, headers), oldest first; bounded to the last 1000. For tests. */
  requests(): RecordedRequest[];
  stop(): Promise<void>;
}

// Ray 2.58.0's commit (observed, FINDINGS.md); other versions get it too (cosmetic).
const rayCommit = 'cec0a091b12675bbf101cf8a350c8706107baee1';

/** The routes' view of the head: its parts and what the faults did to it. */
function dashboardState(parts: {
  jobs: JobManager;
  nodes: NodeTable;
  fault: HeadFaultState;
  rayVersion: string;
  features: RayFeatures;
  authToken: string | undefined;
  now: () => number;
}): DashboardState {
  const { jobs, nodes, fault, rayVersion, features, now } = parts;
  return {
    jobs,
    nodes,
    rayVersion,
    features,
    rayCommit,
    sessionName: newSessionName(new Date()),
    authEnabled: parts.authToken !== undefined,
    jobHeadDown: () => now() < fault.jobHeadDownUntil,
    agentDown: () => fault.agentDown,
    driverAgentDown: (nodeId) =>
      nodeId !== null && ((fault.agentDown && nodeId === nodes.head().nodeId) || fault.lostWorkers.has(nodeId)),
    packages: new Set(),
    now,
  };
}

/** The last 1000 requests, oldest first (for tests). */
function requestRecorder() {
  const recorded: RecordedRequest[] = [];
  return {
    record: (r: RecordedRequest) => {
      recorded.push(r);
      if (recorded.length > 1000) recorded.shift();
    },
    list: () => [...recorded],
  };
}

export async function startRayEmulator(options: RayEmulatorOptions = {}): Promise<RayEmulator> {
  const host = options.host ?? '127.0.0.1';
  const timing: EmulatorTiming = { ...rayDefaultTiming, ...options.timing };
  const now = () => Date.now();
  const rayVersion = options.rayVersion ?? '2.58.0';
  const features = rayFeatures(rayVersion);
  let demand: Record<string, number> = {};
  const nodes = createNodeTable(options.nodeIp || (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host), now);
  const jobs = createJobManager({
    nodes,
    timing,
    shell: options.shell ?? '/bin/bash',
    cwd: options.cwd,
    env: options.env ?? {},
    now,
    features,
  });
  const fault = newHeadFaultState();
  const state = dashboardState({ jobs, nodes, fault, rayVersion, features, authToken: options.authToken, now });
  const tails = createTailHub({ jobs, timing, dropLastChunk: () => fault.dropLast });
  const gate = createFaultGate();
  const recorder = requestRecorder();
  const server = createDashboardServer({ state, tails, gate, authToken: options.authToken, record: recorder.record });
  const port = await server.listen(host, options.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    faults: createEmulatorFaults({ fault, jobs, nodes, tails, gate, server, timing, now, host, port }),
    jobs: () =>
      jobs.list().map((j) => ({ submissionId: j.submissionId, status: j.status, ...(j.pid !== undefined ? { pid: j.pid } : {}) })),
    addWorkerNode(opts = {}) {
      const id = nodes.addWorker(opts.resources);
      jobs.reschedule();
      return id;
    },
    resourceDemand: () => ({ ...demand }),
    setResourceDemand(next) {
      for (const [name, amount] of Object.entries(next)) {
        if (!Number.isFinite(amount) || amount < 0) throw new Error(`resource demand ${name} must be a non-negative number, got ${amount}`);
      }
      demand = { ...next };
    },
    requests: recorder.list,
    async stop() {
      for (const t of fault.timers) clearTimeout(t);
      fault.timers.clear();
      jobs.close();
      await server.close();
      await server.closeWebSocketServer();
    },
  };
}
