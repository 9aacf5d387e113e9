// The environment of every real Ray node the tests start: ray-conformance's startRealRayHead and the sandbox's
// realRayImage pods (heads and workers) both take it, so a knob is set in one place. Each entry is a setting a
// production user could give their own Ray image (Ray reads RAY_<name> for its system config in every process, and
// these Python-side names from its dashboard); none changes what the tests rely on (job submit/tail/stop, the node
// table, autoscaler v1/v2, GCS FT, actors and tasks). They cut CPU only: a 2-core CI machine runs ~25 real nodes.
// Measured on one head (`ray start --head --block`, num-cpus 2, tools/ci/measure.sh; tools/ci/README.md has the figures).

/** RAY_* settings for every real Ray node started by the tests (a caller's or a pod's own env still wins). */
export const realRayEnv: Readonly<Record<string, string>> = {
  // No machine here reaches Ray's usage-stats server: a head would only spend time trying.
  RAY_USAGE_STATS_ENABLED: '0',
  // Nothing scrapes Ray's metrics here. Off, the dashboard agent stops recording and exporting every node's
  // metrics each 5 s (its idle CPU ~0.5 -> ~0.3 CPU-s/min), the raylet and GCS stop their metric timers.
  RAY_enable_metrics_collection: '0',
  // When the first driver registers (seen on a head's first job submission) the raylet starts num-cpus Python
  // workers ahead of need (~1 CPU-s each); one that no task takes then idles at ~0.9 CPU-s/min. Off, a worker
  // starts when a task or actor needs one, as it does for every later job anyway.
  RAY_prestart_worker_first_driver: '0',
  // Ray keeps up to num-cpus idle workers of finished tasks, and a worker belongs to one job, so after a job the
  // head kept a worker that no later job could use (~0.9 CPU-s/min). 0: an idle worker goes after Ray's 1 s idle
  // threshold; a task queued meanwhile still reuses it.
  RAY_num_workers_soft_limit: '0',
  // The dashboard records its own and its 9 module processes' CPU and memory (psutil, /proc smaps) every 5 s for
  // metrics that are not collected here (dashboard idle ~0.85 -> ~0.7 CPU-s/min).
  METRICS_RECORD_INTERVAL_S: '60',
};
