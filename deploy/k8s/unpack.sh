#!/usr/bin/env bash
# Restores the run folder that the bench Job printed on its log (deploy/k8s/bench-job.sh):
#
#   kubectl logs job/bench | deploy/k8s/unpack.sh [RESULTS_DIR]      # default: results
#   deploy/k8s/unpack.sh [RESULTS_DIR] < bench.log
#
# Checks the archive's sha256 and that it holds one run folder, extracts it owned by the user running this
# into RESULTS_DIR/<run>/ (where
# `npx nx run bench:compare` finds it), points RESULTS_DIR/latest at it and prints its path.
set -euo pipefail
dest=${1:-results}
log=$(mktemp)
archive=$(mktemp)
trap 'rm -f "$log" "$archive"' EXIT
tr -d '\r' > "$log"

begin=$(grep -m 1 -E '^----- BEGIN BENCH RUN .+\.tar\.gz sha256=[0-9a-f]{64} -----$' "$log" || true)
if [ -z "$begin" ]; then
  echo "unpack: no '----- BEGIN BENCH RUN' line in the log (did the Job finish? is this the bench Job's log?)" >&2
  exit 1
fi
run=$(sed -E 's/^----- BEGIN BENCH RUN (.+)\.tar\.gz sha256=.*/\1/' <<< "$begin")
want=$(sed -E 's/.*sha256=([0-9a-f]{64}) -----$/\1/' <<< "$begin")
if ! grep -qx -- '----- END BENCH RUN -----' "$log"; then
  echo "unpack: the archive of $run is cut short (no END line): fetch the whole log again" >&2
  exit 1
fi
sed -n '/^----- BEGIN BENCH RUN /,/^----- END BENCH RUN -----$/p' "$log" | sed '1d;$d' | base64 -d > "$archive"
got=$(sha256sum "$archive" | cut -d ' ' -f 1)
if [ "$got" != "$want" ]; then
  echo "unpack: the archive of $run is damaged (sha256 $got, the Job printed $want)" >&2
  exit 1
fi
if tar -tzf "$archive" | grep -qvE "^$run(/|\$)"; then
  echo "unpack: the archive holds more than the folder $run/; not extracting it" >&2
  exit 1
fi
if [ -e "$dest/$run" ]; then
  echo "unpack: $dest/$run already exists; not overwriting it" >&2
  exit 1
fi
mkdir -p "$dest"
# Owned by whoever restores it: the archive's owner is the pod's user (uid 1000), a stranger on the host.
tar --no-same-owner -xzf "$archive" -C "$dest"
ln -sfn "$run" "$dest/latest"
echo "$dest/$run"
