/**
 * The worker's wait-gcs-ready init container script: poll `ray health-check` against the head every 5 s until
 * the GCS answers. Quiet for the first two minutes (a head normally needs that long to start), then the health
 * check's own output is shown so a stuck worker explains itself in `kubectl logs -c wait-gcs-ready`.
 */
export function waitGcsReadyScript(address: string): string {
  return [
    'SECONDS=0',
    'until false; do',
    `  if [ "$SECONDS" -le 120 ]; then`,
    `    if ray health-check --address ${address} >/dev/null 2>&1; then echo "GCS is ready."; break; fi`,
    `    echo "Waited $SECONDS s for the GCS at ${address}."`,
    '  else',
    `    if ray health-check --address ${address}; then echo "GCS is ready (earlier errors can be ignored)."; break; fi`,
    `    echo "Still waiting after $SECONDS s for the GCS at ${address}; see https://docs.ray.io/en/latest/cluster/kubernetes/troubleshooting.html"`,
    '  fi',
    '  sleep 5',
    'done',
  ].join('\n');
}
