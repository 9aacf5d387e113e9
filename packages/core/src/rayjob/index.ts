export * from './settings.ts';
export * from './inputs.ts';
export * from './actions.ts';
export * from './messages.ts';
export * from './decide.ts';
export * from './observation-plan.ts';
export * from './execution-metric.ts';
export * from './submitter-state.ts';
export { RAYJOB_FINALIZER } from './context.ts';
