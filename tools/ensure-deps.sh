#!/usr/bin/env bash
# Sourced by ./demo and ./test: Node 24 first on PATH (fetched from the npm registry when missing), and the
# workspace installed with `npm ci` when node_modules is missing or older than package-lock.json. Safe to run
# again in a new shell: it does nothing that is already done.
. "$(dirname "${BASH_SOURCE[0]}")/node-env.sh" || return 1
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing the workspace (npm ci) ..." >&2
  npm ci --no-audit --no-fund >&2 || return 1
fi
