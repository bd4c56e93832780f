#!/usr/bin/env bash
# The benchmark on the cluster of the current kubectl context, in one command (docs/kubernetes.md):
#
#   deploy/k8s/run.sh --image REGISTRY/nest-grpc-vs-json-bench:TAG [options] [-- bench:all options]
#
# Options:
#   --overlay spread|packed|base   placement (default spread: the client on another node than the servers)
#   --pinned                       Guaranteed QoS in whole CPUs (components/pinned)
#   --variant blog|tuned|blog-window   what the client and both servers run (default blog)
#   --image REF                    the image built from the repo's Dockerfile, by tag or digest, never :latest
#                                  (default nest-grpc-vs-json-bench:VERSION, VERSION from package.json)
#   --namespace NS                 (default: the context's)
#   --results DIR                  where the run folder is restored (default results)
#   --timeout-s N                  for the apps' rollout and the Job's pod to start (default 600)
#   --fits-nodes N                 check that the placement fits N schedulable nodes and stop (no cluster)
#   --render                       print the manifests this would apply and stop (needs no cluster)
#
# It first counts the cluster's schedulable nodes and refuses a placement that cannot fit (spread needs
# two). It writes a kustomization over the overlay (image, variant, the Job's arguments, and a Secret with a new
# random control token for the client and the Job: docs/kubernetes.md), applies it with the Job
# suspended, waits for the three Deployments to roll out (one that stalls prints its pods' events, the
# scheduler's reasons among them, before giving up), starts the Job, follows its log, and restores
# the run with deploy/k8s/unpack.sh into RESULTS/<run>/, adding kubernetes-pods.txt (every pod's node,
# QoS class, CPU limit and image digest, as the cluster reports them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

version=$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$here/../../package.json")
overlay=spread pinned=false variant=blog image=nest-grpc-vs-json-bench:$version namespace='' results=results timeout=600 render=false fits_nodes=''
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --overlay) overlay=${2:?--overlay needs a value}; shift 2 ;;
    --pinned) pinned=true; shift ;;
    --variant) variant=${2:?--variant needs a value}; shift 2 ;;
    --image) image=${2:?--image needs a value}; shift 2 ;;
    --namespace) namespace=${2:?--namespace needs a value}; shift 2 ;;
    --results) results=${2:?--results needs a value}; shift 2 ;;
    --timeout-s) timeout=${2:?--timeout-s needs a value}; shift 2 ;;
    --render) render=true; shift ;;
    --fits-nodes) fits_nodes=${2:?--fits-nodes needs a value}; shift 2 ;;
    --) shift; break ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown option $1" >&2; usage ;;
  esac
done
case $overlay in spread|packed) source_dir=../overlays/$overlay ;; base) source_dir=../base ;; *) echo "run.sh: --overlay is spread, packed or base, not $overlay" >&2; exit 2 ;; esac
case $variant in blog|tuned|blog-window) ;; *) echo "run.sh: --variant is blog, tuned or blog-window (the Nest variants), not $variant" >&2; exit 2 ;; esac

k() { kubectl ${namespace:+--namespace "$namespace"} "$@"; }
# The nodes a placement needs: spread keeps the client off the servers' node (required anti-affinity), so
# on fewer nodes its pods never schedule and a rollout would only wait out its timeout.
needed_nodes=1
[ "$overlay" = spread ] && needed_nodes=2
refuse_placement() { # NODES [NAMES]
  echo "run.sh: --overlay $overlay needs $needed_nodes schedulable nodes (the client on one, the servers on another); the cluster has $1${2:+ ($2)}: use --overlay packed or base, or add a node" >&2
  exit 2
}
if [ -n "$fits_nodes" ]; then
  [ "$fits_nodes" -ge "$needed_nodes" ] || refuse_placement "$fits_nodes"
  exit 0
fi
# A moving tag makes two runs of one command measure two builds: a fixed tag, or best a digest.
if [[ $image != *@sha256:* ]] && { [[ ${image##*/} != *:* ]] || [[ $image == *:latest ]]; }; then
  echo "run.sh: --image $image: give a fixed tag (name:TAG, not latest) or a digest (name@sha256:…), so the run says which build it measured" >&2
  exit 2
fi
# The client's control token, new for every run (the client binds 0.0.0.0 and requires it; the Job sends
# it): 32 random bytes as hex, into a kustomize-generated Secret, never into a file of the repository.
token=$(od -An -vtx1 -N32 /dev/urandom | tr -d ' \n')
# The heap from the container's limit (base/kustomization.yaml), then the Node options a variant's tunings
# need at process start (libs/config nodeOptionsFor; a test keeps the two equal).
node_options='--max-old-space-size-percentage=70'
[ "$variant" = tuned ] && node_options+=' --max-semi-space-size=64'

# A YAML (JSON) string.
quote() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
# REF as kustomize's image fields: registry/name[:tag][@digest].
image_fields() {
  local ref=$1 name=$1
  if [[ $ref == *@* ]]; then name=${ref%%@*}; printf '    digest: %s\n' "$(quote "${ref#*@}")"; fi
  if [[ ${name##*/} == *:* ]]; then printf '    newTag: %s\n' "$(quote "${name##*:}")"; name=${name%:*}; fi
  printf '    newName: %s\n' "$(quote "$name")"
}
args=()
for arg in "$@"; do args+=("$(quote "$arg")"); done

# Inside deploy/k8s/: kustomize takes only relative paths to other kustomizations.
dir=$(mktemp -d "$here/.run.XXXXXX")
trap 'rm -rf "$dir"' EXIT
{
  echo 'apiVersion: kustomize.config.k8s.io/v1beta1'
  echo 'kind: Kustomization'
  [ -n "$namespace" ] && echo "namespace: $(quote "$namespace")"
  echo "resources: [$(quote "$source_dir")]"
  [ "$pinned" = true ] && echo "components: [$(quote ../components/pinned)]"
  echo 'images:'
  echo '  - name: nest-grpc-vs-json-bench'
  image_fields "$image"
  echo 'secretGenerator:'
  echo '  - name: bench-token'
  echo "    literals: [$(quote "token=$token")]"
  echo '    options: { labels: { app.kubernetes.io/part-of: grpc-vs-json-bench } }'
  echo 'configMapGenerator:'
  echo '  - name: bench-settings'
  echo '    behavior: merge'
  echo "    literals: [$(quote "VARIANT=$variant"), $(quote "NODE_OPTIONS=$node_options"), $(quote "K8S_IMAGE=$image")]"
  echo 'patches:'
  echo '  - target: { group: batch, kind: Job, name: bench }'
  echo '    patch: |-'
  echo "      - { op: replace, path: /spec/template/spec/containers/0/args, value: [$(IFS=,; echo "${args[*]-}")] }"
  # The bench names its run folder where this script restores it, not as the pod's /tmp/results.
  echo "      - { op: add, path: /spec/template/spec/containers/0/env/-, value: { name: BENCH_RESULTS_ON_HOST, value: $(quote "$results") } }"
  echo '      - { op: add, path: /spec/suspend, value: true }'
} > "$dir/kustomization.yaml"

if [ "$render" = true ]; then
  kubectl kustomize "$dir"
  exit 0
fi

# Schedulable: not cordoned and without a NoSchedule or NoExecute taint (a tainted control plane takes no pods).
schedulable=$(k get nodes -o 'jsonpath={range .items[*]}{.metadata.name} {.spec.unschedulable} {.spec.taints[*].effect}{"\n"}{end}' | grep -vE ' true |NoSchedule|NoExecute' | cut -d ' ' -f 1 || true)
node_count=$(grep -c . <<< "$schedulable" || true)
[ "$node_count" -ge "$needed_nodes" ] || refuse_placement "$node_count" "$(paste -sd ' ' <<< "$schedulable")"

# What kept pods from running, for a wait that gave up: their phase and node, then their events (the
# scheduler's FailedScheduling reasons, image pulls, probes), oldest first.
pod_reasons() { # SELECTOR WHAT
  echo "run.sh: $2; its pods and their events:" >&2
  k get pods -l "$1" -o wide >&2 || true
  local pod
  for pod in $(k get pods -l "$1" -o name); do
    k get events --field-selector "involvedObject.name=${pod#pod/}" --sort-by=.metadata.creationTimestamp -o 'custom-columns=TIME:.metadata.creationTimestamp,TYPE:.type,REASON:.reason,MESSAGE:.message' >&2 || true
  done
}
# A Job's template cannot change: the previous run's Job goes first (its log with it).
k delete job bench --ignore-not-found --wait=true
k apply -k "$dir"
for app in server-a server-b client; do
  k rollout status "deployment/$app" --timeout="${timeout}s" || { pod_reasons "app.kubernetes.io/name=$app" "deployment/$app did not roll out within $timeout s"; exit 1; }
done
k patch job bench --type merge -p '{"spec":{"suspend":false}}'

echo "run.sh: bench Job started; following its log" >&2
waited=0
until phase=$(k get pods -l job-name=bench -o 'jsonpath={.items[0].status.phase}' 2>/dev/null) && [[ $phase =~ ^(Running|Succeeded|Failed)$ ]]; do
  if [ $waited -ge "$timeout" ]; then pod_reasons job-name=bench "the bench Job's pod did not start within $timeout s"; exit 1; fi
  sleep 2; waited=$((waited + 2))
done
k logs -f job/bench | sed '/^----- BEGIN BENCH RUN /,/^----- END BENCH RUN -----$/d' >&2 || true
until done=$(k get job bench -o 'jsonpath={.status.succeeded}{.status.failed}') && [ -n "$done" ]; do sleep 2; done
succeeded=$(k get job bench -o 'jsonpath={.status.succeeded}')

k logs job/bench > "$dir/bench.log"
run_dir=$("$here/unpack.sh" "$results" < "$dir/bench.log")
k get pods -l app.kubernetes.io/part-of=grpc-vs-json-bench \
  -o 'custom-columns=POD:.metadata.name,NODE:.spec.nodeName,QOS:.status.qosClass,CPU_REQUEST:.spec.containers[0].resources.requests.cpu,CPU_LIMIT:.spec.containers[0].resources.limits.cpu,IMAGE:.status.containerStatuses[0].imageID' \
  > "$run_dir/kubernetes-pods.txt"
echo "run.sh: $run_dir (placement $overlay$([ "$pinned" = true ] && echo ', pinned'), variant $variant)" >&2
[ "$succeeded" = 1 ]
