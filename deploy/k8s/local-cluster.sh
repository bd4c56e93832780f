#!/usr/bin/env bash
# The Kubernetes Job for real on this machine (npx nx run bench:k8s-local), as root:
#
#   deploy/k8s/local-cluster.sh [run.sh options] [-- bench:all options]   # default: --overlay packed -- --profile quick
#
# Brings up a one-node cluster inside a network namespace of its own, runs deploy/k8s/run.sh on it,
# restores the run folder into ./results, checks it, and removes everything it made. Its parts are real
# and pinned: kube-apiserver, controller-manager, scheduler, kubelet, kube-proxy and kubectl v1.34.4 and
# CoreDNS v1.14.7 built from the Go module proxy (local/build-components.sh; cached, so a second run
# starts in seconds), etcd, containerd, runc and the CNI plugins from Debian. The image is the project's
# Dockerfile built on a private Docker engine (deploy/compose/engine.sh, image.sh) and imported into
# containerd; the pod sandbox is local/pause, built here: no registry is needed.
#
# What stays on the host: nothing. Every address (node 198.19.224.1 on the namespace's loopback, pods 198.19.225.0/24, Services
# 198.19.226.0/24, inside the benchmark range 198.18.0.0/15) and every iptables rule kube-proxy writes
# lives in the namespace; etcd, containerd and the kubelet keep their state under one temporary
# directory. The kubelet sets a few kernel settings of its own (vm.overcommit_memory, kernel.panic,
# kernel.panic_on_oops); they are put back as they were. What it shows and what it does not:
# docs/kubernetes.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
# The private Docker engine and the image (engine.sh comes with image.sh).
# shellcheck source=../compose/image.sh
source "$root/deploy/compose/image.sh"

run_args=() bench_args=()
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then shift; bench_args=("$@"); break; fi
  run_args+=("$1"); shift
done
[ ${#run_args[@]} -eq 0 ] && run_args=(--overlay packed)
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--profile quick)

# The cluster has one node: a placement that needs more (spread) refuses now, not after the image build
# and a rollout's whole timeout.
"$here/run.sh" "${run_args[@]}" --fits-nodes 1

[ "$(id -u)" = 0 ] || { echo "local-cluster: run it as root (it starts containerd, the kubelet and a network namespace)" >&2; exit 1; }
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - started )) s"; }
say() { echo "local-cluster: $* ($(elapsed))" >&2; }

engine_install
missing=()
command -v etcd >/dev/null || missing+=(etcd-server)
[ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian's ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
bin=$(nice -n 19 "$here/local/build-components.sh")
say "components in $bin"

version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' package.json)
image=nest-grpc-vs-json-bench:$version
node_ip=198.19.224.1 pod_cidr=198.19.225.0/24 service_cidr=198.19.226.0/24
ns=nestbench-k8s-$$
work=$(mktemp -d /tmp/nest-grpc-bench-k8s.XXXXXX)
# Paths the kubelet and containerd use whatever their flags say; removed at the end if they are new.
fixed_paths=(/var/lib/kubelet /run/containerd /var/log/pods /var/log/containers /var/lib/cni /etc/cni /opt/cni)
new_paths=()
for p in "${fixed_paths[@]}"; do [ -e "$p" ] || new_paths+=("$p"); done
netns_before=$(ls /run/netns 2>/dev/null || true)
sysctls=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes)
declare -A sysctl_before
for s in "${sysctls[@]}"; do sysctl_before[$s]=$(sysctl -n "$s"); done
pids=()

in_ns() { nsenter --net="/run/netns/$ns" "$@"; }
export KUBECONFIG=$work/admin.kubeconfig
k() { in_ns "$bin/kubectl" "$@"; }
start() { # NAME COMMAND…: in the namespace, logging to $work/NAME.log
  local name=$1; shift
  # nsenter itself (not a function, whose subshell would be the pid), which execs the component: $! is its pid.
  nsenter --net="/run/netns/$ns" "$@" > "$work/$name.log" 2>&1 &
  pids+=($!)
}
wait_for() { # WHAT SECONDS COMMAND…
  local what=$1 seconds=$2 waited=0; shift 2
  until "$@" >/dev/null 2>&1; do
    if [ $waited -ge "$seconds" ]; then say "$what not ready after $seconds s"; return 1; fi
    sleep 1; waited=$((waited + 1))
  done
  say "$what ready"
}

cleanup() {
  local status=$?
  set +e
  if [ -f "$KUBECONFIG" ] && k get --raw /readyz >/dev/null 2>&1; then
    k delete deployment,service,job,configmap,secret,networkpolicy -l app.kubernetes.io/part-of=grpc-vs-json-bench --wait=true --timeout=120s >/dev/null 2>&1
  fi
  # The components, newest first, by the pids this script started.
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null
  done
  # containerd's shims and the containers they hold, then anything else still naming $work (the
  # directory is unique to this run), by pid.
  for pid in $(pgrep -f "containerd-shim-runc-v2 .*$work" || true); do
    pkill -9 -P "$pid" 2>/dev/null
    kill -9 "$pid" 2>/dev/null
  done
  for pid in $(pgrep -f -- "$work" || true); do kill -9 "$pid" 2>/dev/null; done
  grep -o " $work/[^ ]*" /proc/mounts | sort -r | while read -r mnt; do umount -l "$mnt"; done
  # The node's namespace, and the pods' (containerd names them cni-…) that a killed sandbox left.
  for d in $(ls /run/netns 2>/dev/null); do
    [[ $d == "$ns" || ( $d == cni-* && -z $(grep -xF "$d" <<< "$netns_before") ) ]] && ip netns delete "$d"
  done
  # The pods' cgroups (cgroup v1: one kubepods tree per hierarchy), deepest first.
  find /sys/fs/cgroup -maxdepth 2 -name kubepods -type d 2>/dev/null | while read -r tree; do
    find "$tree" -depth -type d -exec rmdir {} \; 2>/dev/null
  done
  for s in "${sysctls[@]}"; do sysctl -qw "$s=${sysctl_before[$s]}"; done
  for p in "${new_paths[@]}"; do rm -rf "$p"; done
  engine_stop
  rm -rf "$work"
  say "removed the cluster, its namespace, cgroups and files"
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The image and the pod sandbox, from a private Docker engine, into one archive for containerd.
engine_start "$work/engine"
project_image "$image"
(cd "$here/local/pause" && CGO_ENABLED=0 go build -trimpath -o "$work/pause-root/pause" .)
tar -C "$work/pause-root" -c pause | docker import --change 'ENTRYPOINT ["/pause"]' - nest-grpc-bench-pause:local >/dev/null
docker save -o "$work/images.tar" "$image" nest-grpc-bench-pause:local
engine_stop
say "image $image built and saved"

ip netns add "$ns"
ip -n "$ns" link set lo up
# The node's address, on the namespace's loopback device: local to every component, reached by the pods
# through their bridge's gateway.
ip -n "$ns" addr add "$node_ip/32" dev lo

mkdir -p "$work/cni/net.d" "$work/cni/ipam"
cat > "$work/cni/net.d/10-nestbench.conflist" <<EOF
{ "cniVersion": "0.4.0", "name": "nestbench", "plugins": [
  { "type": "bridge", "bridge": "nb-cni0", "isGateway": true, "ipMasq": false, "hairpinMode": true,
    "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$pod_cidr" }]], "routes": [{ "dst": "0.0.0.0/0" }], "dataDir": "$work/cni/ipam" } },
  { "type": "portmap", "capabilities": { "portMappings": true } } ] }
EOF
# restrict_oom_score_adj: root in a container or VM may not lower oom_score_adj, and runc would fail
# every sandbox ("can't get final child's PID from pipe: EOF") without it.
cat > "$work/containerd.toml" <<EOF
version = 2
root = "$work/containerd/root"
state = "$work/containerd/state"
[grpc]
  address = "$work/containerd.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$work/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "docker.io/library/nest-grpc-bench-pause:local"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$work/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
EOF
start containerd containerd --config "$work/containerd.toml"
wait_for containerd 30 ctr -a "$work/containerd.sock" version
ctr -a "$work/containerd.sock" -n k8s.io images import "$work/images.tar" >/dev/null
rm -f "$work/images.tar"

start etcd etcd --data-dir "$work/etcd" --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster default=http://127.0.0.1:2380
wait_for etcd 30 in_ns curl -fs http://127.0.0.1:2379/health

# One admin token for every component (AlwaysAllow: a throwaway one-node cluster with no other users);
# the apiserver makes its own serving certificate, which the kubeconfig does not verify.
token=$(od -An -vtx1 -N32 /dev/urandom | tr -d ' \n')
echo "$token,admin,admin,system:masters" > "$work/tokens.csv"
openssl genrsa -out "$work/sa.key" 2048 2>/dev/null
openssl rsa -in "$work/sa.key" -pubout -out "$work/sa.pub" 2>/dev/null
cat > "$KUBECONFIG" <<EOF
apiVersion: v1
kind: Config
clusters: [{ name: local, cluster: { server: "https://$node_ip:6443", insecure-skip-tls-verify: true } }]
users: [{ name: admin, user: { token: "$token" } }]
contexts: [{ name: local, context: { cluster: local, user: admin, namespace: default } }]
current-context: local
EOF
start kube-apiserver "$bin/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 --advertise-address="$node_ip" \
  --service-cluster-ip-range="$service_cidr" --cert-dir="$work/apiserver" --token-auth-file="$work/tokens.csv" \
  --authorization-mode=AlwaysAllow --service-account-issuer=https://kubernetes.default.svc \
  --service-account-key-file="$work/sa.pub" --service-account-signing-key-file="$work/sa.key" \
  --kubelet-preferred-address-types=InternalIP
wait_for kube-apiserver 120 k get --raw /readyz
start kube-controller-manager "$bin/kube-controller-manager" --kubeconfig="$KUBECONFIG" --leader-elect=false \
  --service-account-private-key-file="$work/sa.key" --cluster-cidr="$pod_cidr" --service-cluster-ip-range="$service_cidr"
start kube-scheduler "$bin/kube-scheduler" --kubeconfig="$KUBECONFIG" --leader-elect=false

cat > "$work/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: cgroupfs
failSwapOn: false
clusterDNS: ["$node_ip"]
clusterDomain: cluster.local
resolvConf: /etc/resolv.conf
podLogsDir: $work/pod-logs
authentication: { anonymous: { enabled: true }, webhook: { enabled: false } }
authorization: { mode: AlwaysAllow }
evictionHard: { memory.available: 100Mi, nodefs.available: 1%, imagefs.available: 1% }
imageGCHighThresholdPercent: 100
EOF
start kubelet "$bin/kubelet" --config="$work/kubelet.yaml" --kubeconfig="$KUBECONFIG" --root-dir="$work/kubelet" \
  --cert-dir="$work/kubelet/pki" --container-runtime-endpoint="unix://$work/containerd.sock" \
  --hostname-override=nestbench-node --node-ip="$node_ip"
# Conntrack settings at 0: kube-proxy leaves the kernel's as they are.
start kube-proxy "$bin/kube-proxy" --kubeconfig="$KUBECONFIG" --hostname-override=nestbench-node --proxy-mode=iptables \
  --cluster-cidr="$pod_cidr" --conntrack-max-per-core=0 --conntrack-tcp-timeout-established=0 --conntrack-tcp-timeout-close-wait=0
# CoreDNS as a process of the node, on the node's address (the kubelet's clusterDNS): Service names for the pods.
cat > "$work/Corefile" <<EOF
.:53 {
  bind $node_ip
  kubernetes cluster.local in-addr.arpa ip6.arpa {
    kubeconfig $KUBECONFIG local
    pods insecure
  }
  cache 5
}
EOF
start coredns "$bin/coredns" -conf "$work/Corefile"
wait_for "node nestbench-node" 120 k wait --for=condition=Ready node/nestbench-node --timeout=1s

say "running deploy/k8s/run.sh ${run_args[*]} -- ${bench_args[*]}"
mkdir -p results
before=$(ls results)
in_ns env PATH="$bin:$PATH" KUBECONFIG="$KUBECONFIG" "$here/run.sh" --image "$image" "${run_args[@]}" -- "${bench_args[@]}"
run=$(comm -13 <(sort <<< "$before") <(ls results | sort) | grep -E '^[0-9]{4}-' | tail -n 1 || true)
[ -n "$run" ] || { say "no new run folder in results/"; exit 1; }
# Run through sudo, the folder belongs to the user who asked for it, not root.
if [ -n "${SUDO_UID:-}" ]; then
  chown -R "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" "results/$run"
  chown -h "$SUDO_UID:${SUDO_GID:-$SUDO_UID}" results/latest
fi
node "$root/deploy/compose/check-run.js" "results/$run" kubernetes
cat "results/$run/kubernetes-pods.txt" >&2
say "results/$run ok"
