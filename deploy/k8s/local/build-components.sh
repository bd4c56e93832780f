#!/usr/bin/env bash
# Builds the Kubernetes components a one-node cluster needs (deploy/k8s/local-cluster.sh), from the Go
# module proxy, pinned: kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy and
# kubectl at KUBERNETES_VERSION, CoreDNS at COREDNS_VERSION. Prints the directory that holds them.
#
#   deploy/k8s/local/build-components.sh
#
# Built once into ~/.cache/nest-grpc-bench/k8s/<version>/bin (7¼ minutes on 2 idle cores, 25 on 2 busy ones;
# ~7 GB of disk: 6.5 GiB of Go caches, 0.75 GiB of binaries: docs/kubernetes.md); later runs find them there
# and return at once. `go install k8s.io/kubernetes/cmd/kubelet@…`
# cannot work (k8s.io/kubernetes replaces its staging modules with local paths), so a small module here
# requires k8s.io/kubernetes and replaces each staging module (the `replace` block of its own go.mod, read
# from the proxy) with that module's release of the same minor, v0.<minor>.<patch>.
set -euo pipefail
KUBERNETES_VERSION=${KUBERNETES_VERSION:-v1.34.4}
COREDNS_VERSION=${COREDNS_VERSION:-v1.14.7}
COMPONENTS=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)

command -v go >/dev/null || { echo "build-components: go is missing (https://go.dev/dl/, or apt-get install golang-1.24)" >&2; exit 1; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/nest-grpc-bench/k8s/$KUBERNETES_VERSION
bin=$cache/bin
all_there() { for c in "${COMPONENTS[@]}" coredns; do [ -x "$bin/$c" ] || return 1; done; }
if all_there; then echo "$bin"; exit 0; fi

mkdir -p "$bin" "$cache/module"
export CGO_ENABLED=0 GOFLAGS=-mod=mod
staging=v0.${KUBERNETES_VERSION#v1.}
gomod=$(go mod download -json "k8s.io/kubernetes@$KUBERNETES_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",$/\1/p')
cd "$cache/module"
{
  echo 'module local/kubernetes-components'
  echo 'go 1.24.0'
  echo "require k8s.io/kubernetes $KUBERNETES_VERSION"
  echo 'replace ('
  sed -n '/^replace (/,/^)/p' "$gomod" | sed -n "s#^\t\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\t\1 => \1 $staging#p"
  echo ')'
} > go.mod
echo "build-components: Kubernetes $KUBERNETES_VERSION ($(grep -c " => " go.mod) staging modules at $staging)" >&2
pkgs=()
for c in "${COMPONENTS[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$c"); done
go get "${pkgs[@]/%/@$KUBERNETES_VERSION}" >&2
for c in "${COMPONENTS[@]}"; do
  [ -x "$bin/$c" ] && continue
  start=$(date +%s)
  go build -trimpath -o "$bin/$c.part" "k8s.io/kubernetes/cmd/$c" && mv "$bin/$c.part" "$bin/$c"
  echo "build-components: $c in $(( $(date +%s) - start )) s" >&2
done
if [ ! -x "$bin/coredns" ]; then
  start=$(date +%s)
  GOBIN=$cache/gobin go install "github.com/coredns/coredns@$COREDNS_VERSION"
  mv "$cache/gobin/coredns" "$bin/coredns"
  rmdir "$cache/gobin"
  echo "build-components: coredns $COREDNS_VERSION in $(( $(date +%s) - start )) s" >&2
fi
echo "$bin"
