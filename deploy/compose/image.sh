# The project's image on a private engine (sourced; needs engine.sh's DOCKER_HOST):
#
#   project_image TAG   # builds the Dockerfile as TAG, on its own base or on base_image's
#   base_image NAME     # prints the image to pass as --build-arg NODE_IMAGE=…
#
# NAME (the Dockerfile's NODE_IMAGE) is pulled when a registry answers, and used as it is. Otherwise an
# equivalent is made here without any registry: Debian bookworm from deb.debian.org by debootstrap
# (minbase, the tarball cached under ~/.cache/nest-grpc-bench/docker/), the project's own Node (the
# `node` package npm ci installed, package.json's engines), the npm that runs this script (pinned by
# its version, fetched with `npm pack`, cached), and a `node` user with uid 1000 as the official image
# has. Where outgoing HTTPS is re-signed by a local CA (/usr/local/share/ca-certificates/), that CA goes
# into the image too (NODE_EXTRA_CA_CERTS), or the build's `npm ci` could not reach the registry.

# shellcheck source=engine.sh
source "$(dirname "${BASH_SOURCE[0]}")/engine.sh"

BASE_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/nest-grpc-bench/docker

base_image() {
  local wanted=$1 root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  if timeout 120 docker pull -q "$wanted" >/dev/null 2>&1; then
    echo "$wanted"
    return 0
  fi
  local node_bin=$root/node_modules/node/bin/node
  if [ ! -x "$node_bin" ]; then
    echo "base-image: $wanted cannot be pulled and $node_bin is missing: run npm ci first" >&2
    return 1
  fi
  local node_version npm_version tag
  node_version=$("$node_bin" --version)
  npm_version=$(npm --version)
  tag=nest-grpc-bench-base:node-${node_version#v}-npm-$npm_version
  echo "base-image: $wanted cannot be pulled here; making $tag (Debian bookworm minbase, Node $node_version, npm $npm_version)" >&2

  mkdir -p "$BASE_CACHE"
  local rootfs=$BASE_CACHE/debian-bookworm-minbase.tar
  if [ ! -s "$rootfs" ]; then
    local tree
    tree=$(mktemp -d)
    echo "base-image: debootstrap --variant=minbase bookworm (once; cached as $rootfs)" >&2
    if ! debootstrap --variant=minbase bookworm "$tree" http://deb.debian.org/debian >"$tree.log" 2>&1; then
      tail -n 20 "$tree.log" >&2
      rm -rf "$tree" "$tree.log"
      return 1
    fi
    tar -C "$tree" -cf "$rootfs.part" . && mv "$rootfs.part" "$rootfs"
    rm -rf "$tree" "$tree.log"
  fi
  local npm_tgz=$BASE_CACHE/npm-$npm_version.tgz
  if [ ! -s "$npm_tgz" ]; then
    (cd "$BASE_CACHE" && npm pack --silent "npm@$npm_version" >/dev/null)
  fi

  docker import --change 'CMD ["bash"]' "$rootfs" nest-grpc-bench-debian:bookworm-minbase >/dev/null
  local context
  context=$(mktemp -d)
  cp "$node_bin" "$context/node"
  cp "$npm_tgz" "$context/npm.tgz"
  cat /usr/local/share/ca-certificates/*.crt > "$context/extra-ca.pem" 2>/dev/null || : > "$context/extra-ca.pem"
  local ca_env=''
  [ -s "$context/extra-ca.pem" ] && ca_env='ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca.pem'
  cat > "$context/Dockerfile" <<EOF
FROM nest-grpc-bench-debian:bookworm-minbase
COPY node /usr/local/bin/node
COPY extra-ca.pem /usr/local/share/extra-ca.pem
ADD npm.tgz /usr/local/lib/
RUN mv /usr/local/lib/package /usr/local/lib/node_modules-npm \\
 && mkdir -p /usr/local/lib/node_modules && mv /usr/local/lib/node_modules-npm /usr/local/lib/node_modules/npm \\
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd -g 1000 node && useradd -u 1000 -g node -m -s /bin/bash node
$ca_env
CMD ["node"]
EOF
  local status=0
  docker build -q --network host -t "$tag" "$context" >/dev/null || status=$?
  rm -rf "$context"
  [ $status -eq 0 ] && echo "$tag"
  return $status
}

project_image() {
  local tag=$1 root wanted base
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  wanted=$(sed -n 's/^ARG NODE_IMAGE=//p' "$root/Dockerfile")
  base=$(base_image "$wanted") || return 1
  local args=(--build-arg "GIT_COMMIT=$(git -C "$root" rev-parse HEAD 2>/dev/null || true)")
  [ "$base" != "$wanted" ] && args+=(--build-arg "NODE_IMAGE=$base")
  echo "image: building $tag on $base" >&2
  # --network host: the build's npm ci reaches the registry through the host's own network (the engine
  # has no NAT of its own).
  docker build -q --network host "${args[@]}" -t "$tag" "$root" >/dev/null
}
