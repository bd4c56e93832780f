#!/usr/bin/env bash
# Builds the Go reference implementation (optional: without Go or protoc it says why and exits 0).
#
#   bash tools/go-reference/build.sh            generate gen/ from proto/, build dist/{server-a,server-b,client}
#   bash tools/go-reference/build.sh generate   only generate gen/
#   bash tools/go-reference/build.sh test       generate gen/, then go test ./...
#
# gen/ (protobuf Go code), .bin/ (protoc plugins) and dist/ (binaries) are build outputs, never committed.
# The plugins' versions are pinned by the `tool` lines of go.mod; the .proto files stay unchanged
# (their Go packages are given with --go_opt=M… mappings).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mode="${1:-build}"
case "$mode" in build | generate | test) ;; *)
  echo "usage: bash tools/go-reference/build.sh [build|generate|test]" >&2
  exit 2
  ;;
esac

skip() {
  # Tests must not pass by testing nothing: under CI a missing tool fails them, naming it (as the
  # bench's specs do through tools/bench/test/needs.ts). A build stays optional: the variant is.
  if [ "$mode" = test ] && [ "${CI:-}" = true ]; then
    echo "go-reference: cannot test: $*" >&2
    exit 1
  fi
  echo "go-reference: skipped: $*"
  exit 0
}

command -v go >/dev/null 2>&1 || skip "Go toolchain not found (install Go >= 1.26 from go.dev/dl and put it on PATH)"
cd "$here"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

find_protoc() {
  if [ -n "${PROTOC:-}" ] && [ -x "${PROTOC}" ]; then
    echo "$PROTOC"
    return 0
  fi
  command -v protoc 2>/dev/null
}

# protoc: Debian's protobuf-compiler; installed here if missing and we may (root with apt-get).
protoc_bin="$(find_protoc || true)"
if [ -z "$protoc_bin" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "go-reference: protoc not found, installing Debian's protobuf-compiler"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq protobuf-compiler >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq protobuf-compiler >/dev/null 2>&1; } ||
    echo "go-reference: apt-get install protobuf-compiler failed"
  protoc_bin="$(find_protoc || true)"
fi

if [ -z "$protoc_bin" ]; then
  if [ "$mode" = test ] && [ "${CI:-}" != true ]; then
    # The unit tests of the generator, validation and reply check need no generated code.
    echo "go-reference: protoc not found: testing only the packages that need no generated code"
    exec go test ./internal/...
  fi
  skip "protoc not found (install Debian's protobuf-compiler, or set PROTOC to a protoc binary)"
fi

# protoc-gen-go and protoc-gen-go-grpc, at the versions go.mod pins, into .bin/.
GOBIN="$here/.bin" go install tool

# Generate into a fresh folder, then swap it in, so gen/ is never half written.
module=goreference/gen
maps=(
  "Msample.proto=$module/samplepb;samplepb"
  "Mhealth.proto=$module/healthpb;healthpb"
  "Mmetrics.proto=$module/metricspb;metricspb"
  "Mpath.proto=$module/pathpb;pathpb"
)
go_opts=(--go_opt="module=$module")
grpc_opts=(--go-grpc_opt="module=$module")
for m in "${maps[@]}"; do
  go_opts+=(--go_opt="$m")
  grpc_opts+=(--go-grpc_opt="$m")
done
# A folder of this run's own (two targets may generate at once), swapped in with one rename.
tmp=$(mktemp -d "$here/gen.tmp.XXXXXX")
PATH="$here/.bin:$PATH" "$protoc_bin" -I "$root/proto" \
  --go_out="$tmp" "${go_opts[@]}" \
  --go-grpc_out="$tmp" "${grpc_opts[@]}" \
  sample.proto health.proto metrics.proto path.proto
rm -rf "$here/gen.old.$$"
[ -d "$here/gen" ] && mv "$here/gen" "$here/gen.old.$$"
mv "$tmp" "$here/gen"
rm -rf "$here/gen.old.$$"
echo "go-reference: generated gen/ from proto/ with $("$protoc_bin" --version)"

case "$mode" in
generate) ;;
test) go test ./... ;;
build)
  mkdir -p "$here/dist"
  go build -trimpath -o "$here/dist/" ./cmd/server-a ./cmd/server-b ./cmd/client
  echo "go-reference: built $(go env GOVERSION) binaries: tools/go-reference/dist/{server-a,server-b,client}"
  ;;
esac
