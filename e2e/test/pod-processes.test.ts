// The real-Ray faults pick their victims by command line, as `kubectl exec ... pkill -f` would. The command
// lines below are a Ray 2.58 head's, as /proc shows them (NULs as spaces; paths shortened to the venv's).
import { describe, expect, it } from 'vitest';
import { rayProcessPatterns } from '../src/drivers/pod-processes.ts';

const site = '/opt/rayjob-ray-venv/lib/python3.11/site-packages/ray';
const agentArgs = `--node-id=e725c7d8 --node-ip-address=10.244.63.2 --metrics-export-port=8080 --grpc-port=0 --listen-port=52365 --session-dir=/tmp/ray/session_1`;
const headProcesses = {
  raylet: `${site}/core/src/ray/raylet/raylet --raylet_socket_name=/tmp/ray/session_1/sockets/raylet --node_id=e725c7d8 --dashboard_agent_command=/opt/rayjob-ray-venv/bin/python -u ${site}/dashboard/agent.py ${agentArgs} --runtime_env_agent_command=/opt/rayjob-ray-venv/bin/python -u ${site}/_private/runtime_env/agent/main.py --node-id=e725c7d8`,
  agentTitled: 'ray::DashboardAgent',
  agentBeforeTitle: `/opt/rayjob-ray-venv/bin/python -u ${site}/dashboard/agent.py ${agentArgs}`,
  runtimeEnvAgent: `/opt/rayjob-ray-venv/bin/python -u ${site}/_private/runtime_env/agent/main.py --node-id=e725c7d8`,
  dashboard: `/opt/rayjob-ray-venv/bin/python -u ${site}/dashboard/dashboard.py --host=0.0.0.0 --port=8265 --temp-dir=/tmp/ray`,
  jobHead: 'ray-dashboard-JobHead-0',
  gcs: `${site}/core/src/ray/gcs/gcs_server --gcs_server_port=6379 --session-dir=/tmp/ray/session_1`,
  rayStart: '/opt/rayjob-ray-venv/bin/python /opt/rayjob-ray-venv/bin/ray start --head --block --dashboard-agent-listen-port=52365',
};

const matching = (pattern: RegExp) => Object.entries(headProcesses).filter(([, cmdline]) => pattern.test(cmdline)).map(([name]) => name);

describe('real-Ray fault targets', () => {
  it.each([
    { fault: "the head's DashboardAgent, not the raylet whose flags carry the agent's command", pattern: rayProcessPatterns.dashboardAgent, victims: ['agentTitled', 'agentBeforeTitle'] },
    { fault: "the dashboard's JobHead module only", pattern: rayProcessPatterns.jobHead, victims: ['jobHead'] },
  ])('$fault', ({ pattern, victims }) => {
    expect(matching(pattern)).toEqual(victims);
  });
});
