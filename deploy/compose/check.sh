#!/usr/bin/env bash
# docker-compose.yml run for real, start to finish, on a private Docker engine (npx nx run bench:compose-check):
#
#   deploy/compose/check.sh [bench:all options]     # default: --profile quick
#
# Installs Debian's Docker if it is missing (as root), starts its own dockerd (engine.sh: own data root,
# no change to the host's firewall, forwarding or routes), builds the project's image (the Dockerfile's
# base when a registry serves it, else one made here: image.sh), runs `docker-compose up` with the
# bench's options replaced by these, checks that the run folder came back into ./results with every cell
# ok and labelled as what ran (the variant, Node 24, the containers' CPUs and memory limits), then removes
# everything it made: containers, networks and their bridges, images, the engine and its directory. The
# run folder stays in ./results. Exits non-zero if any step or check fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
here=$root/deploy/compose
# The private engine and the image (engine.sh comes with image.sh).
# shellcheck source=image.sh
source "$here/image.sh"

bench_args=("$@")
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--profile quick)
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }

engine_install
work=$(mktemp -d /tmp/nest-grpc-bench-compose.XXXXXX)
project=nestgrpcbenchcheck$$
compose() { docker-compose -p "$project" -f docker-compose.yml -f "$work/check.yml" "$@"; }
cleanup() {
  local status=$?
  set +e
  if [ -n "${DOCKER_HOST:-}" ] && [ -f "$work/check.yml" ]; then compose down --volumes --remove-orphans >/dev/null 2>&1; fi
  engine_stop
  rm -rf "$work"
  echo "compose-check: removed the engine, its containers, networks and images ($(elapsed) in all)" >&2
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

engine_start "$work/engine"

project_image nest-grpc-vs-json-bench
echo "compose-check: image built ($(elapsed))" >&2
# Why the file sizes every heap from the container's limit: what Node makes of that limit on its own.
heap() { docker run --rm -m "${APP_MEMORY:-6g}" nest-grpc-vs-json-bench node "$@" -e 'process.stdout.write(String(Math.round(require("v8").getHeapStatistics().heap_size_limit / 2 ** 20)))'; }
echo "compose-check: V8 heap limit in a ${APP_MEMORY:-6g} container: $(heap) MiB by Node's default, $(heap --max-old-space-size-percentage=70) MiB with the file's --max-old-space-size-percentage=70" >&2

# The bench's options, and a host port for the client that nothing else holds; the rest is the file as it is.
# The port is written as plain text: console.log colours a number under FORCE_COLOR, which nx sets.
{
  echo 'services:'
  echo '  bench:'
  printf '    command: ["node", "tools/bench/dist/main.js", "--client-url", "http://client:3000", "--out", "/results"'
  for arg in "${bench_args[@]}"; do printf ', "%s"' "$arg"; done
  echo ']'
} > "$work/check.yml"
export BENCH_TOKEN
BENCH_TOKEN=$(od -An -vtx1 -N32 /dev/urandom | tr -d ' \n')
CLIENT_HOST_PORT=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { process.stdout.write(String(s.address().port)); s.close(); })')
export CLIENT_HOST_PORT
mkdir -p results
before=$(ls results)
echo "compose-check: docker-compose up (bench: ${bench_args[*]}) ($(elapsed))" >&2
compose up --no-build --abort-on-container-exit --exit-code-from bench
echo "compose-check: compose finished ($(elapsed))" >&2

run=$(comm -13 <(sort <<< "$before") <(ls results | sort) | grep -E '^[0-9]{4}-' | tail -n 1 || true)
if [ -z "$run" ]; then
  echo "compose-check: no new run folder in results/" >&2
  exit 1
fi
node "$here/check-run.js" "results/$run"
echo "compose-check: results/$run ok ($(elapsed))" >&2
