#!/usr/bin/env bash
# Runs a command in a cpuacct cgroup of its own (cgroup v1, root) and prints its wall and CPU seconds: every
# descendant counts, daemonized Ray and Redis processes too, and other users of the machine do not, so the CPU
# figure stays comparable on a loaded machine. Nested calls nest their cgroups (the outer total includes them).
#   tools/ci/measure.sh <command...>
set -euo pipefail
base=/sys/fs/cgroup/cpuacct
parent=${CI_CPU_CGROUP:-}
name=${parent:+$parent/}ci-measure-$$
dir=$base/$name
mkdir "$dir"
cleanup() {
  for p in $(cat "$dir/cgroup.procs" 2>/dev/null); do echo "$p" > "$base/${parent:+$parent/}cgroup.procs" 2>/dev/null || true; done
  rmdir "$dir" 2>/dev/null || true
}
trap cleanup EXIT
echo $$ > "$dir/cgroup.procs"
export CI_CPU_CGROUP=$name
start=$(date +%s.%N)
set +e
"$@"
rc=$?
set -e
end=$(date +%s.%N)
printf 'measure: wall=%.1f cpu=%.1f rc=%s :: %s (in %s)\n' "$(echo "$end - $start" | bc)" "$(echo "$(cat "$dir/cpuacct.usage") / 1000000000" | bc -l)" "$rc" "$*" "$PWD"
exit "$rc"
