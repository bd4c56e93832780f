#!/usr/bin/env bash
# Builds the NFQUEUE delayer of the network stage into tools/delayer/dist/delayer.
#
#   bash tools/delayer/build.sh         build dist/delayer
#   bash tools/delayer/build.sh test    go vet + go test ./... (the timing queue; no netlink needed)
#
# Versions are pinned by go.mod/go.sum. Without Go it says what to install and exits 0: only the
# network stage needs the delayer, and the stage itself refuses to start without it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode="${1:-build}"
case "$mode" in build | test) ;; *)
  echo "usage: bash tools/delayer/build.sh [build|test]" >&2
  exit 2
  ;;
esac

if ! command -v go >/dev/null 2>&1; then
  why="Go toolchain not found (install Go >= 1.26 from go.dev/dl and put it on PATH; the network stage needs it)"
  # Tests must not pass by testing nothing: under CI a missing Go fails them (tools/bench/test/needs.ts does the same for the specs).
  if [ "$mode" = test ] && [ "${CI:-}" = true ]; then
    echo "delayer: cannot test: $why" >&2
    exit 1
  fi
  echo "delayer: skipped: $why"
  exit 0
fi
cd "$here"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

case "$mode" in
test)
  go vet ./...
  go test ./...
  ;;
build)
  mkdir -p dist
  # Static: it is exec'd by `ip netns exec` inside a namespace, and needs nothing from cgo.
  CGO_ENABLED=0 go build -trimpath -o dist/delayer .
  echo "delayer: built $(go env GOVERSION) binary: tools/delayer/dist/delayer"
  ;;
esac
