#!/usr/bin/env bash
# Issue 23's last real-API-server point: a RayJob through --use-kubernetes-proxy to Complete on kube-reference
# (a real kube-apiserver 1.32 + kube-controller-manager), with the sandbox's node joined over REST
# (`rayjob-sandbox node --kubeconfig`). Run it (on a shared machine inside `flock -w 1200 <heavy lock>`):
#   KUBE_REFERENCE_DIR=... HELM=... tools/kube-reference/rayjob-through-proxy.sh > run.log 2>&1
# It WIPES that control plane's etcd first and stops it at the end. Not in CI (kube-reference is built on a developer
# machine). The record of a run is in docs/real-apiserver.md.
set -uo pipefail
REPO=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
KR=${KUBE_REFERENCE_DIR:-/root/kube-reference-admission}   # a kube-reference build: start.sh, stop.sh, kubeconfig, pki/
HELM=${HELM:-helm}
OUT=${OUT:-$(mktemp -d)}   # logs, the ServiceAccount kubeconfig
NODE_DIR=/tmp/rayjob-real-node
export KUBECONFIG=$KR/kubeconfig
export HOME=$OUT   # helm/kubectl caches stay out of the real HOME
cd "$REPO" && . tools/node-env.sh
step() { echo; echo "### $(date -u +%H:%M:%S) $*"; }
NODE_PID=; OP_PID=; FAILED=0   # the exit status: 1 when a RayJob did not reach Complete or the operator logged an error
cleanup() {
  step cleanup
  [ -n "$OP_PID" ] && kill -TERM "$OP_PID" 2>/dev/null && wait "$OP_PID" 2>/dev/null
  [ -n "$NODE_PID" ] && kill -TERM "$NODE_PID" 2>/dev/null && wait "$NODE_PID" 2>/dev/null
  $KR/stop.sh
}
trap cleanup EXIT
wait_for() { # SECONDS DESC CMD...
  local t=$1 desc=$2; shift 2; local end=$((SECONDS + t))
  until "$@" >/dev/null 2>&1; do
    if [ $SECONDS -ge $end ]; then echo "TIMED OUT after ${t}s waiting for $desc"; return 1; fi
    sleep 2
  done
  echo "ok: $desc"
}

step "fresh control plane (etcd wiped)"
$KR/stop.sh --wipe >/dev/null 2>&1
$KR/start.sh | tail -1 || exit 1
kubectl version 2>/dev/null | grep Server

step "helm install of the chart (replicas=0: the operator runs as a process with the chart's ServiceAccount token)"
$HELM install rayjob apps/operator/deploy/helm/rayjob-operator -n rayjob-real --create-namespace --set replicas=0 --wait=false | head -8
kubectl create namespace team-a

step "join the sandbox's node over REST (rayjob-sandbox node --kubeconfig; Ray images -> the Ray emulator)"
rm -rf "$NODE_DIR"
RAYJOB_RAY_VENV=/nonexistent RAYJOB_REAL_RAY_BIN= node packages/sandbox/src/cli.ts node --kubeconfig "$KR/kubeconfig" --dir "$NODE_DIR" --node-name sandbox-node-1 > "$OUT/node.log" 2>&1 &
NODE_PID=$!
wait_for 90 "Node sandbox-node-1 Ready" bash -c '[ "$(kubectl get node sandbox-node-1 -o jsonpath="{.status.conditions[?(@.type==\"Ready\")].status}")" = True ]' || { tail -30 "$OUT/node.log"; exit 1; }
kubectl get nodes -o wide

step "the operator as a process holding the chart's ServiceAccount token over HTTPS, the chart's args, --use-kubernetes-proxy=true"
TOKEN=$(kubectl create token rayjob-rayjob-operator -n rayjob-real --duration=2h)
cat > "$OUT/sa.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: real
  cluster: {server: https://127.0.0.1:6443, certificate-authority: $KR/pki/ca.crt}
users:
- name: op
  user: {token: $TOKEN}
contexts:
- name: op
  context: {cluster: real, user: op, namespace: rayjob-real}
current-context: op
EOF
chmod 600 "$OUT/sa.kubeconfig"
ARGS=$(kubectl get deploy -n rayjob-real rayjob-rayjob-operator -o go-template='{{range (index .spec.template.spec.containers 0).args}}{{.}} {{end}}')
ARGS=$(echo "$ARGS" | sed -e 's/--use-kubernetes-proxy=false/--use-kubernetes-proxy=true/' -e 's/--metrics-addr=:8080/--metrics-addr=127.0.0.1:18080/' -e 's/--health-probe-bind-address=:8082/--health-probe-bind-address=127.0.0.1:18082/')
echo "operator args: $ARGS"
KUBECONFIG=$OUT/sa.kubeconfig POD_NAMESPACE=rayjob-real POD_NAME=rayjob-operator-process node apps/operator/src/main.ts $ARGS > "$OUT/operator-proxy.log" 2>&1 &
OP_PID=$!
wait_for 60 "the operator to lead" grep -q 'successfully acquired lease' "$OUT/operator-proxy.log" || { tail -20 "$OUT/operator-proxy.log"; exit 1; }
grep -o '"msg":"successfully acquired lease"[^}]*' "$OUT/operator-proxy.log" | head -1

step "two RayJobs in team-a: HTTPMode (the operator submits and follows through the service proxy) and the seed's K8sJobMode"
cat <<'EOF' | kubectl apply -f -
apiVersion: ray.io/v1
kind: RayJob
metadata: {name: via-proxy, namespace: team-a}
spec:
  submissionMode: HTTPMode
  entrypoint: bash -c 'for i in 1 2 3; do echo "step $i/3"; sleep 1; done; echo through the service proxy'
  rayClusterSpec:
    rayVersion: 2.55.1
    headGroupSpec:
      rayStartParams: {}
      template:
        spec:
          containers:
            - name: ray-head
              image: rayproject/ray:2.55.1
              ports: [{containerPort: 8265, name: dashboard}]
EOF
sed 's/namespace: default/namespace: team-a/' e2e/samples/seed-rayjob.yaml | kubectl apply -f -
for j in via-proxy rayjob-seed; do
  wait_for 300 "RayJob $j Complete" bash -c "[ \"\$(kubectl get rayjob -n team-a $j -o jsonpath='{.status.jobDeploymentStatus}')\" = Complete ]" \
    || { FAILED=1; kubectl get rayjob -n team-a $j -o yaml | tail -40; kubectl get pods -A -o wide; tail -30 "$OUT/node.log"; }
done

step "what the real API server shows"
kubectl get rayjobs -n team-a
kubectl get rayclusters,pods,svc,endpoints,jobs -n team-a -o wide
for j in via-proxy rayjob-seed; do
  echo "--- $j"; kubectl get rayjob -n team-a $j -o jsonpath='{.status.jobStatus} {.status.jobDeploymentStatus} {.status.jobId} {.status.dashboardURL}{"\n"}{range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\n"}{end}'
done
kubectl get events -n team-a --sort-by=.lastTimestamp -o custom-columns=TYPE:.type,REASON:.reason,SOURCE:.source.component,OBJECT:.involvedObject.name,MESSAGE:.message | tail -30
SVC=$(kubectl get raycluster -n team-a -l ray.io/originated-from-cr-name=via-proxy -o jsonpath='{.items[0].status.head.serviceName}' 2>/dev/null)
[ -n "$SVC" ] || SVC=$(kubectl get svc -n team-a -o name | grep via-proxy | head -1 | sed 's|service/||')
echo "--- GET through the real kube-apiserver's service proxy, as the operator does: /api/v1/namespaces/team-a/services/$SVC:dashboard/proxy/api/jobs/"
kubectl get --raw "/api/v1/namespaces/team-a/services/$SVC:dashboard/proxy/api/jobs/" | head -c 600; echo
echo "--- the head pod's logs through the real kube-apiserver (pods/log -> the joined node's kubelet endpoint)"
HEAD=$(kubectl get pods -n team-a -l ray.io/node-type=head -o name | head -1)
kubectl logs -n team-a "$HEAD" --tail=3
echo "--- the operator's dashboard calls and API calls (its /metrics)"
curl -s 127.0.0.1:18080/metrics | grep -E '^kuberay_job_dashboard_requests_total|^rest_client_requests_total' | head -20
echo "--- operator log: errors"
ERRORS=$(grep -c '"level":"error"' "$OUT/operator-proxy.log")   # grep -c exits 1 when it counts 0: read the count
echo "$ERRORS"
grep '"level":"error"' "$OUT/operator-proxy.log" | head -5
[ "$ERRORS" = 0 ] || FAILED=1
exit $FAILED
