export { loadConfig, usage, type OperatorConfig } from './config/config.ts';
export { startOperator, type OperatorOptions, type RunningOperator } from './operator.ts';
export { controllers } from './controllers/index.ts';
export type { ControllerContext, ControllerRegistration, StartedController } from './controllers/types.ts';
