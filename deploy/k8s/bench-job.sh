#!/usr/bin/env bash
# The bench Job's command (base/bench-job.yaml): wait until the client answers GET /health/ready, run
# bench:all against it with this script's arguments, then print the run folder as a base64 tar.gz between
# two marker lines, so that `kubectl logs job/bench | deploy/k8s/unpack.sh` restores results/<run>/.
#
#   bash deploy/k8s/bench-job.sh [bench:all options, e.g. --profile quick --cases 1-1]
#
# Environment: CLIENT_URL (http://client:3000), RESULTS_DIR (/tmp/results: the pod's only writable
# place), READY_TIMEOUT_S (600), BENCH_RESULTS_ON_HOST (results: where unpack.sh restores the run, so the
# bench names the folder as the user will find it; run.sh sets its --results). Exits with the bench's
# exit code, after printing whatever it measured.
set -uo pipefail
cd "$(dirname "$0")/../.."

client=${CLIENT_URL:-http://client:3000}
out=${RESULTS_DIR:-/tmp/results}

echo "bench-job: waiting for $client/health/ready" >&2
node -e '
  const [url, seconds] = process.argv.slice(1);
  const until = Date.now() + Number(seconds) * 1000;
  const attempt = () => fetch(url, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false);
  (async () => {
    while (!(await attempt())) {
      if (Date.now() > until) { console.error(`bench-job: ${url} not ready after ${seconds} s`); process.exit(1); }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
' "$client/health/ready" "${READY_TIMEOUT_S:-600}" || exit 1

mkdir -p "$out"
export BENCH_RESULTS_ON_HOST=${BENCH_RESULTS_ON_HOST:-results}
node tools/bench/dist/main.js --client-url "$client" --out "$out" "$@"
status=$?

# The newest run folder (the pod's results directory is new, so it is this run's).
run=$(cd "$out" && ls -d [0-9][0-9][0-9][0-9]-*/ 2>/dev/null | sort | tail -n 1)
run=${run%/}
if [ -z "$run" ]; then
  echo "bench-job: no run folder under $out (bench exited $status)" >&2
  exit "$status"
fi
archive=$(mktemp)
tar -czf "$archive" -C "$out" "$run"
sum=$(sha256sum "$archive" | cut -d ' ' -f 1)
echo "----- BEGIN BENCH RUN $run.tar.gz sha256=$sum -----"
base64 "$archive"
echo "----- END BENCH RUN -----"
rm -f "$archive"
echo "bench-job: bench exited $status; the run is above (deploy/k8s/unpack.sh)" >&2
exit "$status"
