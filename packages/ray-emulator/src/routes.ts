// The dashboard's HTTP routes for jobs, version, health and nodes (ray-jobs-api.md §3), as pure-ish
// functions from (method, path, body) to a reply; the server module does the socket work.
import { isTerminal, jobDetails, type JobManager } from './job-manager.ts';
import { nodeSummaryBody, type NodeTable } from './nodes.ts';
import {
  agentUnreachable,
  aiohttp404,
  aiohttp405,
  aiohttp500,
  deleteNonTerminal,
  duplicateSubmission,
  jobNotFound,
} from './ray-texts.ts';
import { parseSubmitBody } from './submit-request.ts';
import type { RayFeatures } from './version.ts';

export interface Reply {
  status: number;
  contentType: string;
  body: string;
}

export interface DashboardState {
  jobs: JobManager;
  nodes: NodeTable;
  rayVersion: string;
  features: RayFeatures;
  rayCommit: string;
  sessionName: string;
  authEnabled: boolean;
  /** JobHead subprocess restarting: proxied routes answer aiohttp's 500. */
  jobHeadDown: () => boolean;
  /** The head node's DashboardAgent is dead: agent-routed calls fail with ClientConnectorError. */
  agentDown: () => boolean;
  /** The agent on a job's driver node cannot be reached (head agent dead, or the worker lost). */
  driverAgentDown: (nodeId: string | null) => boolean;
  packages: Set<string>;
  now: () => number;
}

const jsonType = 'application/json; charset=utf-8';
const textType = 'text/plain; charset=utf-8';
export const json = (status: number, value: unknown): Reply => ({ status, contentType: jsonType, body: JSON.stringify(value) });
export const text = (status: number, body: string): Reply => ({ status, contentType: textType, body });

/** Routes served by the JobHead subprocess (down during a JobHead restart). */
export function isJobHeadRoute(path: string): boolean {
  return path === '/api/version' || path.startsWith('/api/jobs/') || path.startsWith('/api/packages/');
}

/** `/api/jobs/<id>[/<rest>]` -> [id, rest]; undefined when the path is not a job path. */
export function parseJobPath(path: string): { id: string; rest: string } | undefined {
  const match = /^\/api\/jobs\/([^/]+)(\/stop|\/logs|\/logs\/tail)?$/.exec(path);
  if (!match || match[1] === undefined) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
  return { id, rest: match[2] ?? '' };
}

export function route(state: DashboardState, method: string, url: URL, body: string): Reply {
  const path = url.pathname;
  if (state.jobHeadDown() && isJobHeadRoute(path)) return text(500, aiohttp500);
  const head = state.nodes.head();

  switch (path) {
    case '/api/version':
      if (method !== 'GET' && method !== 'HEAD') return text(405, aiohttp405);
      return json(200, { version: '4', ray_version: state.rayVersion, ray_commit: state.rayCommit, session_name: state.sessionName });
    case '/api/gcs_healthz':
      return { status: 200, contentType: 'application/text; charset=utf-8', body: 'success' };
    case '/api/authentication_mode':
      return json(200, { authentication_mode: state.authEnabled ? 'token' : 'disabled' });
    case '/nodes':
      if (url.searchParams.get('view') !== 'summary') {
        return json(200, { result: false, msg: `Unknown view ${url.searchParams.get('view')}`, data: {} });
      }
      return json(200, nodeSummaryBody(state.nodes, state.now()));
    case '/api/jobs/':
      if (method === 'GET' || method === 'HEAD') return json(200, state.jobs.list().map((j) => jobDetails(j, state.features)));
      if (method !== 'POST') return text(405, aiohttp405);
      return submit(state, body, head.ip);
  }

  if (path.startsWith('/api/packages/')) return packages(state, method, path);

  const jobPath = parseJobPath(path);
  if (!jobPath) return text(404, aiohttp404);
  const job = state.jobs.get(jobPath.id);
  const expected = jobPath.rest === '' ? ['GET', 'HEAD', 'DELETE'] : jobPath.rest === '/stop' ? ['POST'] : ['GET', 'HEAD'];
  if (!expected.includes(method)) return text(405, aiohttp405);
  if (!job) return text(404, jobNotFound(jobPath.id));

  if (jobPath.rest === '' && method !== 'DELETE') return json(200, jobDetails(job, state.features));
  if (jobPath.rest === '/logs/tail') {
    return text(400, 'No WebSocket UPGRADE hdr: None\n Can "Upgrade" only to "WebSocket".');
  }
  if (jobPath.rest === '/logs') {
    // Logs of a job that never started are answered without asking any agent (§3.7).
    if (job.driverAgentHttpAddress === null) return json(200, { logs: '' });
    if (state.driverAgentDown(job.driverNodeId)) {
      return text(500, agentUnreachable(state.nodes.byId(job.driverNodeId ?? '')?.ip ?? head.ip));
    }
    return json(200, { logs: state.jobs.logsOf(job) });
  }
  // stop and delete always go to the head node's agent
  if (state.agentDown()) return text(500, agentUnreachable(head.ip));
  if (jobPath.rest === '/stop') return json(200, { stopped: state.jobs.stop(job) });
  if (!isTerminal(job.status)) return text(500, deleteNonTerminal(job.submissionId, job.status));
  state.jobs.delete(job.submissionId);
  return json(200, { deleted: true });
}

function submit(state: DashboardState, body: string, headIp: string): Reply {
  const parsed = parseSubmitBody(body, state.rayVersion);
  if (!parsed.ok) return text(parsed.status, parsed.body);
  if (state.agentDown()) return text(500, agentUnreachable(headIp));
  const result = state.jobs.submit(parsed.request);
  if (!result.ok) return text(500, duplicateSubmission(result.duplicate));
  return json(200, { job_id: result.submissionId, submission_id: result.submissionId });
}

function packages(state: DashboardState, method: string, path: string): Reply {
  const match = /^\/api\/packages\/([^/]+)\/([^/]+)$/.exec(path);
  if (!match) return text(404, aiohttp404);
  const uri = `${match[1]}://${match[2]}`;
  if (method === 'PUT') {
    state.packages.add(uri);
    return text(200, '');
  }
  if (method !== 'GET' && method !== 'HEAD') return text(405, aiohttp405);
  return state.packages.has(uri) ? text(200, '') : text(404, `Package ${uri} does not exist`);
}
