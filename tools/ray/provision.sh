#!/usr/bin/env bash
# Provision a cached virtualenv with Ray 2.58.0 (dashboard + job submission) from the
# machine's local Python package mirror, for the real-Ray test tier.
#
#   tools/ray/provision.sh            # venv at $RAYJOB_RAY_VENV (default /opt/rayjob-ray-venv)
#
# Idempotent: a venv that already passes the import check is left alone.
# Exit codes: 0 = ready, or "skipped: <why>" printed when the mirror is absent;
#             anything else = provisioning failed (the real-Ray tier must then fail, not skip).
#
# What it installs, and why each piece is needed:
#  - ray==2.58.0 and the part of ray[default] the dashboard and the job agent import
#    (aiohttp, grpcio, pydantic, prometheus_client, opentelemetry api/proto/sdk, smart_open,
#    virtualenv, py-spy) from the mirror. `colorful` is optional in Ray and left out.
#  - aiohttp_cors: not on the mirror; taken from Debian's python3-aiohttp-cors (pure Python,
#    0.7.0). The .deb is unpacked (`apt-get download`, no system install needed) and only the
#    aiohttp_cors directory is made visible to the venv through a .pth file.
#  - tools/ray/stubs/rayjob_ray_stubs.py: no-op stand-ins for opencensus,
#    opentelemetry.exporter.prometheus and opentelemetry.semconv (metrics export only;
#    none is on the mirror). Real packages, if ever installed, take precedence.
set -euo pipefail

RAY_VERSION=2.58.0
VENV="${RAYJOB_RAY_VENV:-/opt/rayjob-ray-venv}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PY_BASE="${RAYJOB_RAY_PYTHON:-python3}"   # must be CPython 3.11 (the only ray wheel is cp311)

log() { echo "provision-ray: $*" >&2; }

# Ask pip for the mirror only: the default index is unreachable here, and retrying it costs
# minutes per package.
# RAYJOB_PYPI_DIRS overrides the mirror folders (tests use it to simulate a machine without one).
mirror_dirs="${RAYJOB_PYPI_DIRS-/opt/pypi/simple /opt/pypi-more/simple}"
mirror_args=()
for d in $mirror_dirs; do
  if [ -d "$d" ]; then
    if [ ${#mirror_args[@]} -eq 0 ]; then mirror_args+=(--index-url "file://$d"); else mirror_args+=(--extra-index-url "file://$d"); fi
  fi
done
[ -d /opt/wheels ] && mirror_args+=(--find-links /opt/wheels)

has_ray_wheel=false
for d in $mirror_dirs; do [ -d "$d/ray" ] && has_ray_wheel=true; done
if [ "$has_ray_wheel" = false ]; then
  # Last chance: pip configured some other way that can see the ray wheel.
  probe_dir="$(mktemp -d)"
  if ! "$PY_BASE" -m pip download --no-deps -q --timeout 5 --retries 0 -d "$probe_dir" "ray==$RAY_VERSION" >/dev/null 2>&1; then
    rm -rf "$probe_dir"
    echo "skipped: no local Python package mirror with ray==$RAY_VERSION (none of: $mirror_dirs; pip cannot find ray either)"
    exit 0
  fi
  rm -rf "$probe_dir"
fi

check_imports() {
  (cd / && "$VENV/bin/python" - <<'EOF'
import ray
assert ray.__version__ == "2.58.0", ray.__version__
import aiohttp, aiohttp_cors
import ray.dashboard.optional_deps
import ray.dashboard.dashboard, ray.dashboard.agent
import ray.dashboard.modules.job.job_head, ray.dashboard.modules.job.job_agent
import ray.dashboard.modules.reporter.reporter_agent, ray.dashboard.modules.reporter.reporter_head
import ray.dashboard.modules.node.node_head
from ray._private.telemetry.open_telemetry_metric_recorder import OpenTelemetryMetricRecorder
OpenTelemetryMetricRecorder()
print("ray", ray.__version__, "aiohttp", aiohttp.__version__, "aiohttp_cors", aiohttp_cors.__version__)
EOF
  )
}

if [ -x "$VENV/bin/python" ] && [ -x "$VENV/bin/ray" ] && check_imports >/dev/null 2>&1; then
  log "already provisioned: $VENV ($(check_imports 2>/dev/null))"
  exit 0
fi

py_version="$("$PY_BASE" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
if [ "$py_version" != "3.11" ]; then
  log "need CPython 3.11 for the cp311 ray wheel, $PY_BASE is $py_version (set RAYJOB_RAY_PYTHON)"
  exit 1
fi

log "creating venv $VENV"
"$PY_BASE" -m venv "$VENV"
# pip warns once per package about mirror folders that lack it; that noise is dropped.
pip_install() {
  { "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${mirror_args[@]}" "$@" 2>&1 1>&3 \
    | { grep -v "is neither a file nor a directory" || true; } >&2; } 3>&1
}

log "installing ray==$RAY_VERSION and the dashboard's dependencies from the mirror"
pip_install "ray==$RAY_VERSION"
pip_install "aiohttp>=3.14.1" "grpcio>=1.42.0" opentelemetry-api opentelemetry-proto \
  "pydantic>=2.5.0,<3" "prometheus_client>=0.7.1" smart_open "virtualenv>=20.0.24,!=20.21.1" "py-spy>=0.2.0"
# The SDK's own dependency (opentelemetry-semantic-conventions) is not on the mirror; the
# stand-in below covers it, so install the SDK without dependencies.
pip_install --no-deps "opentelemetry-sdk==$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("opentelemetry-api"))')"

site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"

log "bridging aiohttp_cors from Debian's python3-aiohttp-cors"
bridge="$VENV/aiohttp-cors-bridge"
mkdir -p "$bridge"
if [ -d /usr/lib/python3/dist-packages/aiohttp_cors ]; then
  cp -r /usr/lib/python3/dist-packages/aiohttp_cors "$bridge/"
else
  work="$(mktemp -d)"
  # apt-get download fetches the .deb without installing it (or its python3-aiohttp
  # dependency) into Debian's Python. Needs apt lists: run `apt-get update` first.
  if ! (cd "$work" && apt-get download python3-aiohttp-cors >/dev/null 2>&1); then
    log "cannot get python3-aiohttp-cors: run 'apt-get update' (or 'apt-get install -y python3-aiohttp-cors') first"
    exit 1
  fi
  dpkg-deb -x "$work"/python3-aiohttp-cors_*.deb "$work/x"
  cp -r "$work/x/usr/lib/python3/dist-packages/aiohttp_cors" "$bridge/"
  rm -rf "$work"
fi
echo "$bridge" > "$site/rayjob-aiohttp-cors.pth"

log "installing metrics-only stand-ins"
cp "$HERE/stubs/rayjob_ray_stubs.py" "$HERE/stubs/rayjob_ray_stubs.pth" "$site/"

log "verifying"
check_imports
log "ready: $VENV"
