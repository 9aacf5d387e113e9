// The hooks a controller reports through (controller-runtime's reconcile metrics); metrics/ implements
// them with prom-client.
export type ReconcileOutcome = 'success' | 'error' | 'requeue' | 'requeue_after';

export interface ControllerMetrics {
  reconciled(outcome: ReconcileOutcome): void;
  reconcileTime(seconds: number): void;
  activeWorkers(delta: number): void;
  terminalError(): void;
}

export const noControllerMetrics: ControllerMetrics = {
  reconciled: () => undefined,
  reconcileTime: () => undefined,
  activeWorkers: () => undefined,
  terminalError: () => undefined,
};
