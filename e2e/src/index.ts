// Public API of @rayjob/e2e: scenarios as data, the drivers that carry them out, and the runner.
export type { Scenario, Step, Condition, Outcome, FaultName, SubmissionMode } from './scenario/types.ts';
export { rayJobManifest, stepsEntrypoint, type RayJobShape } from './scenario/manifests.ts';
export { scenarios, scenarioById } from './scenarios/index.ts';
export type { Driver, FaultTarget, KubeObject, Resource } from './drivers/types.ts';
export { startSandboxDriver, type SandboxDriver, type SandboxDriverOptions } from './drivers/sandbox-driver.ts';
export { createKubectlDriver, type KubectlDriverOptions } from './drivers/kubectl-driver.ts';
export { startKindDriver, kindUnavailable } from './drivers/kind-driver.ts';
export { runScenario, type ScenarioResult, type RunOptions } from './run/run-scenario.ts';
export { observe, type Observation } from './run/observe.ts';
export { createTimeline, describeState } from './run/timeline.ts';
