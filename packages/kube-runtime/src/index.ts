// Public API of @rayjob/kube-runtime (see README.md for what each part does).
export { systemClock, sleep } from './clock.ts';
export type { Clock } from './clock.ts';

export { createKubeClient, kubeClientOver } from './client/rest-client.ts';
export type { KubeClient, KubeClientOptions, ListOptions, WriteOptions, DeleteOptions, WatchOptions, PatchType, RawRequest, RestObserver } from './client/rest-client.ts';
export { openConnection, kubeConfigFrom, tokenFileReader } from './client/connection.ts';
export type { Connection, ConnectionSource, ConnectionTls, ServerOptions } from './client/connection.ts';
export { resources, resourcePath, apiVersionOf, resourceOf } from './client/resources.ts';
export type { ResourceType, ObjectRef } from './client/resources.ts';
export { isNotFound, isConflict, isAlreadyExists, isGone, isTooManyRequests, isRetryable, describeError } from './client/errors.ts';
export type { KubeError, KubeResult } from './client/errors.ts';
export { objectKey, splitKey } from './client/types.ts';
export type { KubeObject, ObjectMeta, OwnerReference, ObjectList, ListMeta, WatchEvent, WatchEventType, StatusObject } from './client/types.ts';

export { createIndexedCache, stripManagedFields, namespaceIndex, ownerIndex, labelIndex } from './cache/indexed-cache.ts';
export type { IndexedCache, IndexFunc } from './cache/indexed-cache.ts';
export { keepFields, keepFieldsTransform, ruleOfKey } from './cache/keep-fields.ts';
export type { KeepRule } from './cache/keep-fields.ts';
export { createOwnWrites } from './own-writes/own-writes.ts';
export type { OwnWrites, OwnWritesOptions } from './own-writes/own-writes.ts';
export { createInformer } from './informer/informer.ts';
export type { Informer, InformerOptions, EventHandlers } from './informer/informer.ts';
export { listAll } from './informer/list-pages.ts';
export { createBackoff } from './informer/backoff.ts';
export type { Backoff, BackoffOptions } from './informer/backoff.ts';

export { createWorkQueue } from './workqueue/queue.ts';
export type { WorkQueue, WorkQueueOptions } from './workqueue/queue.ts';
export { itemExponentialLimiter, bucketLimiter, maxOfLimiters, defaultControllerRateLimiter } from './workqueue/rate-limiters.ts';
export type { RateLimiter, DefaultLimiterOptions } from './workqueue/rate-limiters.ts';
export type { QueueMetrics } from './workqueue/queue-metrics.ts';

export { createController, ownerKeys, terminalError, isTerminalError, reconcileResultOf } from './controller/controller.ts';
export { newControllerManagedBy, generationChanged, labelsChanged, annotationsChanged, deletionStarted, anyOf, mapsTo } from './controller/builder.ts';
export type { ControllerBuilder, BuilderTarget, UpdatePredicate } from './controller/builder.ts';
export type { Controller, ControllerOptions, WatchFilter, Reconciler, ReconcileContext, ReconcileResult, Request } from './controller/controller.ts';
export type { ControllerMetrics, ReconcileOutcome } from './controller/controller-metrics.ts';

export { createExpectations } from './expectations/expectations.ts';
export type { Expectations, ExpectationsOptions, Expectation, ExpectedObject, ExpectedAction } from './expectations/expectations.ts';

export { createLogger, silentLogger, newReconcileId } from './log.ts';
export type { Logger, LoggerOptions } from './log.ts';

export { createStatusWriter } from './status/status-writer.ts';
export type { StatusWriter, StatusWriterOptions } from './status/status-writer.ts';
export { semanticEqual } from '@rayjob/kube-model';
export { createEventRecorder } from './events/event-recorder.ts';
export type { EventRecorder, EventRecorderOptions, EventRecorderStats, EventType } from './events/event-recorder.ts';
export { clipToBytes, EVENT_NOTE_MAX_BYTES } from './events/clip-note.ts';
// The sandbox's node side names them so; one definition, in @rayjob/kube-model.
export { formatMicroTime as microTime, formatKubeTime as rfc3339 } from '@rayjob/kube-model';
export { createLeaderElector, defaultIdentity } from './leader/leader-election.ts';
export type { LeaderElector, LeaderElectionOptions, ElectionEnd } from './leader/leader-election.ts';
export type { Lease, LeaseSpec } from './leader/lease-lock.ts';
export { createRuntimeMetrics } from './metrics/runtime-metrics.ts';
export type { RuntimeMetrics } from './metrics/runtime-metrics.ts';
export { startProbeServer, parseBindAddress } from './manager/probe-server.ts';
export type { ProbeServer, ProbeRoutes, Check } from './manager/probe-server.ts';
export { createManager } from './manager/manager.ts';
export { onShutdownSignals } from './manager/signals.ts';
export type { Manager, ManagerOptions, ManagerExit, LeaderElectionConfig, InformerScope } from './manager/manager.ts';
