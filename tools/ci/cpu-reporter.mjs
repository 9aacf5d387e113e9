// Vitest reporter that prints, per test file, wall seconds and the CPU seconds charged to the cgroup named by
// CI_CPU_CGROUP (cgroup v1 cpuacct; includes every child process, even daemonized Ray/redis ones). Accurate per
// file only when files run one at a time; the run total is always right.
import { readFileSync, appendFileSync } from 'node:fs';

const cg = process.env.CI_CPU_CGROUP;
const out = process.env.CI_CPU_LOG;
const cpu = () => (cg ? Number(readFileSync(`/sys/fs/cgroup/cpuacct/${cg}/cpuacct.usage`, 'utf8')) / 1e9 : process.cpuUsage().user / 1e6);

export default class CpuReporter {
  starts = new Map();
  onInit() { this.t0 = [Date.now(), cpu()]; }
  onTestModuleStart(m) { this.starts.set(m.moduleId, [Date.now(), cpu()]); }
  onTestModuleEnd(m) {
    const [w, c] = this.starts.get(m.moduleId) ?? [Date.now(), cpu()];
    const line = `cpu-report ${m.project.name} ${m.relativeModuleId} wall=${((Date.now() - w) / 1000).toFixed(1)} cpu=${(cpu() - c).toFixed(1)}\n`;
    process.stdout.write(line);
    if (out) appendFileSync(out, line);
  }
  onTestRunEnd() {
    const line = `cpu-report TOTAL wall=${((Date.now() - this.t0[0]) / 1000).toFixed(1)} cpu=${(cpu() - this.t0[1]).toFixed(1)}\n`;
    process.stdout.write(line);
    if (out) appendFileSync(out, line);
  }
}
