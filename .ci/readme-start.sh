#!/usr/bin/env bash
# The README's first command as a newcomer types it, on whichever Node is first on PATH: it must
# install with no warning, build the catalog and serve. Checked from outside: /readyz answers ready
# and a catalog route answers JSON; then the server is stopped.
set -euo pipefail
cd "$(dirname "$0")/.."

# The first line of the README's first shell block, without its comment.
command=$(awk '/^```sh$/ { getline; print; exit }' README.md | sed 's/ *#.*$//')
case "$command" in
  *"npm start"*) ;;
  *) echo "the README's first command ('$command') does not start the service"; exit 1 ;;
esac
port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close() })')
log=$(mktemp)
data=$(mktemp -d)
echo "\$ $command   (PORT=$port, node $(node --version))"
PORT=$port DATA_DIR="$data" setsid bash -c "$command" >"$log" 2>&1 &
group=$!
stop() { kill -TERM -- "-$group" 2>/dev/null || true; }
trap 'stop; rm -rf "$data"' EXIT

ready=""
for _ in $(seq 1 240); do
  if ! kill -0 "$group" 2>/dev/null; then break; fi
  if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then ready=yes; break; fi
  sleep 1
done
if [ -z "$ready" ]; then
  echo "the service did not become ready; its output:"; cat "$log"; exit 1
fi
curl -fsS "http://127.0.0.1:$port/v1/episodes?limit=1" | node -e '
  let body = ""; process.stdin.on("data", (c) => body += c).on("end", () => {
    const page = JSON.parse(body)
    if (!Array.isArray(page.data) || page.data.length !== 1) { console.error("unexpected page:", body); process.exit(1) }
    console.log("GET /v1/episodes?limit=1: " + page.data[0].title)
  })'
# A newcomer reads a warning as a broken setup: the install and start print none.
if grep -nE "npm (warn|WARN)|EBADENGINE|ExperimentalWarning|DeprecationWarning" "$log"; then
  echo "the README's first command printed the warnings above"; exit 1
fi
stop
for _ in $(seq 1 30); do kill -0 "$group" 2>/dev/null || break; sleep 1; done
echo "== the README's first command installs, serves and stops cleanly on node $(node --version)"
