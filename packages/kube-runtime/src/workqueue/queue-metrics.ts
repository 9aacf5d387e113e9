// The hooks a work queue reports through; the Prometheus implementation lives in metrics/, so the queue
// itself stays free of prom-client.
export interface QueueMetrics {
  depth(n: number): void;
  adds(): void;
  retries(): void;
  /** Seconds a key waited in the queue before a worker took it. */
  queueDuration(seconds: number): void;
  /** Seconds a worker spent on a key. */
  workDuration(seconds: number): void;
}

export const noQueueMetrics: QueueMetrics = {
  depth: () => undefined,
  adds: () => undefined,
  retries: () => undefined,
  queueDuration: () => undefined,
  workDuration: () => undefined,
};
