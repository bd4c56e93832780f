# A private Docker engine for one run (sourced by deploy/compose/check.sh and deploy/k8s/local-cluster.sh):
# Debian's dockerd with its own data root, exec root, pidfile and socket under one directory, so it never
# meets another engine on the machine and everything it made goes when that directory goes.
#
# It leaves the host's network as it found it: no iptables rules (--iptables=false, --ip6tables=false,
# --ip-masq=false), no net.ipv4.ip_forward change (--ip-forward=false), no docker0 (--bridge=none). The
# only bridges are the networks compose makes, from 198.19.240.0/20 (inside the benchmark range
# 198.18.0.0/15, as the network stage's addresses are), and `compose down` removes them. Images are
# built with --network host, so the build's `npm ci` reaches the registry without any NAT.
#
#   engine_start DIR      # DIR is new and empty; exports DOCKER_HOST
#   engine_stop           # stops that dockerd by its pid and removes DIR (containers, images, volumes)

ENGINE_ADDRESS_POOL=198.19.240.0/20

engine_install() {
  local missing=()
  command -v dockerd >/dev/null || missing+=(docker.io)
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  command -v docker-compose >/dev/null || missing+=(docker-compose)
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "engine: missing ${missing[*]}: install them (apt-get install ${missing[*]}) or run this as root" >&2
    return 1
  fi
  echo "engine: installing Debian's ${missing[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

engine_start() {
  ENGINE_DIR=$1
  # The cgroups the engine will add (cgroup v1: one "docker" per hierarchy), to remove those alone later.
  ENGINE_CGROUPS_BEFORE=$(ls -d /sys/fs/cgroup/*/docker /sys/fs/cgroup/docker 2>/dev/null || true)
  mkdir -p "$ENGINE_DIR/data" "$ENGINE_DIR/exec"
  export DOCKER_HOST=unix://$ENGINE_DIR/docker.sock
  dockerd --data-root "$ENGINE_DIR/data" --exec-root "$ENGINE_DIR/exec" --pidfile "$ENGINE_DIR/dockerd.pid" \
    -H "$DOCKER_HOST" --iptables=false --ip6tables=false --ip-masq=false --ip-forward=false --bridge=none \
    --default-address-pool "base=$ENGINE_ADDRESS_POOL,size=24" \
    > "$ENGINE_DIR/dockerd.log" 2>&1 &
  ENGINE_PID=$!
  local waited=0
  until docker version >/dev/null 2>&1; do
    if ! kill -0 "$ENGINE_PID" 2>/dev/null || [ $waited -ge 60 ]; then
      echo "engine: dockerd did not come up; its log:" >&2
      tail -n 20 "$ENGINE_DIR/dockerd.log" >&2
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  echo "engine: dockerd $(docker version -f '{{.Server.Version}}') up in ${waited} s at $DOCKER_HOST" >&2
}

engine_stop() {
  [ -n "${ENGINE_DIR:-}" ] || return 0
  if [ -n "${ENGINE_PID:-}" ] && kill -0 "$ENGINE_PID" 2>/dev/null; then
    # Containers first, so their cgroups and mounts go with them; then the engine, by its pid.
    local ids
    ids=$(docker ps -aq 2>/dev/null || true)
    [ -n "$ids" ] && docker rm -f $ids >/dev/null 2>&1
    docker network prune -f >/dev/null 2>&1 || true
    kill "$ENGINE_PID"
    local waited=0
    while kill -0 "$ENGINE_PID" 2>/dev/null && [ $waited -lt 30 ]; do sleep 1; waited=$((waited + 1)); done
    kill -0 "$ENGINE_PID" 2>/dev/null && kill -9 "$ENGINE_PID"
  fi
  # Whatever overlay mounts the engine left (a killed engine leaves some) go before the directory.
  grep -o " $ENGINE_DIR/[^ ]*" /proc/mounts | sort -r | while read -r mnt; do umount -l "$mnt" 2>/dev/null || true; done
  rm -rf "$ENGINE_DIR"
  # The engine's parent cgroups that were not there before it, empty once its containers are gone.
  local d
  for d in $(ls -d /sys/fs/cgroup/*/docker /sys/fs/cgroup/docker 2>/dev/null); do
    grep -qxF "$d" <<< "$ENGINE_CGROUPS_BEFORE" || rmdir "$d" 2>/dev/null || true
  done
  unset ENGINE_DIR ENGINE_PID ENGINE_CGROUPS_BEFORE
}
