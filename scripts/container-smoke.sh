#!/usr/bin/env bash
# Smoke test of the service images (built by scripts/images.sh) as a cluster
# would run them: on a podman network with DNS names, a PostgreSQL container
# (Debian's postgresql-15, built once from the same local Debian base), each
# schema's `migrate` as a one-off container, then the five services with a
# read-only root filesystem, user 10001, 512 MiB, no capabilities and
# no-new-privileges, one INTERNAL_AUTH_SECRET and a REST configuration file
# mounted read-only; each image loads its modules as stripped when it was
# built. Through the gateway (published on 127.0.0.1): a sample is
# written and read back, a report finds it, a file is uploaded and attached to a
# sample. Every service must then stop on `podman stop` (SIGTERM) with exit
# code 0 within the stop timeout; one that does not is asked for a Node.js
# diagnostic report first. Everything it creates is removed at the end.
#
# Prints PASS/FAIL per step; exits 1 when a step fails.
# Settings: REX_IMAGE_TAG (default latest), STOP_TIMEOUT (seconds, default 20),
# REX_IMAGES_CACHE (as scripts/images.sh), KEEP=1 keeps the stopped containers
# (their logs), the network and the volume for a look; remove them with
# `podman rm -f $(podman ps -aq --filter label=rex-smoke=<id>)`,
# `podman network rm <id>` and `podman volume rm <id>-media`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TAG=${REX_IMAGE_TAG:-latest}
STOP_TIMEOUT=${STOP_TIMEOUT:-20}
SERVICES=(gateway records reports media search)
MIGRATING=(gateway records reports media)
CACHE=${REX_IMAGES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rex-images}
ID=rex-smoke-$$
NET=$ID
WORK=$(mktemp -d)
STARTED=$SECONDS
FAILED=0
CONTAINERS=()

say() { printf '[smoke] %s\n' "$*"; }
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILED=1; }
die() { fail "$*"; exit 1; }

# The containers.conf scripts/images.sh writes (runc, lowered ulimits).
if [ ! -f "$CACHE/containers.conf" ]; then
  bash scripts/images.sh --check >/dev/null || die "podman cannot run containers here (scripts/images.sh --check)"
fi
export CONTAINERS_CONF=$CACHE/containers.conf

cleanup() {
  local status=$?
  if [ "${KEEP:-}" = 1 ]; then
    say "KEEP=1: the containers, network and volume of $ID are kept"
  else
    podman rm -f -t 0 $(podman ps -aq --filter "label=rex-smoke=$ID") >/dev/null 2>&1 || true
    podman network rm -f "$NET" >/dev/null 2>&1 || true
    podman volume rm -f "$ID-media" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

need() { command -v "$1" >/dev/null 2>&1; }
for tool in curl jq; do
  if ! need "$tool"; then
    [ "$(id -u)" -eq 0 ] && need apt-get || die "missing $tool"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$tool" </dev/null >/dev/null 2>&1 || die "apt-get install $tool failed"
  fi
done

# Node.js 24 and the workspace's packages on the host, to seed the demo data
# and sign a token (as `npm start` does).
NODE=$ROOT/node_modules/.bin/node
if [ ! -x "$NODE" ] || [ ! -e "$ROOT/node_modules/@rex/admin" ]; then
  say "installing the workspace's packages (pnpm install)"
  npx -y pnpm@10.34.9 install --frozen-lockfile --reporter=append-only </dev/null >"$WORK/pnpm.log" 2>&1 ||
    { tail -n 20 "$WORK/pnpm.log"; die "pnpm install failed"; }
fi

free_port() {
  "$NODE" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# --- images ------------------------------------------------------------------

for service in "${SERVICES[@]}"; do
  podman image exists "localhost/rex-$service:$TAG" || die "image rex-$service:$TAG is missing: run scripts/images.sh first"
done
pass "images present: $(printf "rex-%s:$TAG " "${SERVICES[@]}")"

# Each image loads its service's modules from the copies stripped when it was
# built (libs/typescript-cache), so Node.js's type stripper is never loaded.
for service in "${SERVICES[@]}"; do
  loaded=$(podman run --rm --pull=never --network none --entrypoint node "localhost/rex-$service:$TAG" \
    --conditions=development --disable-warning=ExperimentalWarning --import /app/libs/typescript-cache/src/register.mjs \
    --input-type=module -e "await import('/app/services/$service/src/server.ts'); console.log(process.moduleLoadList.some((m) => m.includes('amaro')) ? 'stripper loaded' : 'copies only')" 2>&1 | tail -n 1)
  [ "$loaded" = "copies only" ] || die "rex-$service loads modules without their stripped copies: $loaded"
done
pass "every image loads its modules from the copies stripped when it was built"

# PostgreSQL 15 from Debian's packages on the local Debian base, built once (the
# tag follows these files, so a change to them builds a new image) and cached.
mkdir -p "$WORK/postgres"
cat >"$WORK/postgres/start.sh" <<'EOF'
#!/bin/bash
# A throwaway server for tests: trust authentication on its private network, no fsync.
set -e
initdb -U postgres -A trust -E UTF8 --no-sync >/dev/null
echo 'host all all all trust' >>"$PGDATA/pg_hba.conf"
exec postgres -c listen_addresses='*' -c max_connections=200 -c fsync=off -c synchronous_commit=off -c full_page_writes=off
EOF
cat >"$WORK/postgres/Containerfile" <<'EOF'
FROM localhost/debian:bookworm-slim
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/share/doc/* /usr/share/man/*
COPY start.sh /usr/local/bin/start-postgres
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
USER postgres
CMD ["/usr/local/bin/start-postgres"]
EOF
chmod 0755 "$WORK/postgres/start.sh"
PG_TAG=15-bookworm-$(cat "$WORK/postgres/Containerfile" "$WORK/postgres/start.sh" | sha256sum | cut -c1-12)
PG_IMAGE=localhost/rex-smoke-postgres:$PG_TAG
PG_ARCHIVE=$CACHE/rex-smoke-postgres-$PG_TAG.oci.tar
if ! podman image exists "$PG_IMAGE"; then
  if [ -f "$PG_ARCHIVE" ]; then
    skopeo copy -q "oci-archive:$PG_ARCHIVE" "containers-storage:$PG_IMAGE" 2>>"$WORK/skopeo.log" ||
      { cat "$WORK/skopeo.log"; die "could not load $PG_ARCHIVE"; }
  else
    say "building $PG_IMAGE (Debian's postgresql-15 on the local Debian base; once, then cached in $CACHE)"
    podman image exists localhost/debian:bookworm-slim || die "the local Debian base is missing: run scripts/images.sh first"
    nice podman build -q --pull=never -t "$PG_IMAGE" "$WORK/postgres" >"$WORK/postgres-build.log" 2>&1 ||
      { tail -n 20 "$WORK/postgres-build.log"; die "could not build $PG_IMAGE"; }
    rm -f "$CACHE"/rex-smoke-postgres-*.oci.tar
    skopeo copy -q "containers-storage:$PG_IMAGE" "oci-archive:$PG_ARCHIVE.tmp:rex-smoke-postgres:$PG_TAG" 2>>"$WORK/skopeo.log" &&
      mv "$PG_ARCHIVE.tmp" "$PG_ARCHIVE"
  fi
fi

# --- network, database, configuration ------------------------------------------

podman network create --label "rex-smoke=$ID" "$NET" >/dev/null
PG_PORT=$(free_port)
# (aardvark-dns, the network's DNS server, complains on stderr that it has no syslog.)
podman run -d --name "$ID-postgres" --label "rex-smoke=$ID" --network "$NET" \
  -p "127.0.0.1:$PG_PORT:5432" --memory 512m --shm-size 128m "$PG_IMAGE" >/dev/null 2>"$WORK/postgres-run.log" ||
  { cat "$WORK/postgres-run.log"; die "could not start PostgreSQL"; }
for _ in $(seq 1 120); do
  podman exec "$ID-postgres" pg_isready -q -h 127.0.0.1 2>/dev/null && break
  sleep 0.5
done
podman exec "$ID-postgres" pg_isready -q -h 127.0.0.1 || { podman logs "$ID-postgres" | tail -n 20; die "PostgreSQL did not start"; }
pass "PostgreSQL container $ID-postgres ready (network $NET)"
DATABASE_URL="postgres://postgres@$ID-postgres:5432/postgres"
HOST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"

SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
cat >"$WORK/rest-config.yaml" <<'EOF'
# REST configuration of the container smoke test: JWT users over plain HTTP
# (the gateway is reached on loopback, no ingress), small uploads, and a search
# end-point whose index does not exist (search answers 503 for it).
claim_namespace: indicia.org.uk
allow_auth_tokens_in_url: false
authentication_methods:
  jwtUser:
    allow_http: true
    resource_options:
      search_index: { es: { limit_to_own_data: true } }
media_queue:
  max_upload_size: 1048576
  allowed_file_types: [png, jpg, jpeg]
search_index:
  es:
    index: occurrence
    url: http://search-index.invalid:9200
    allowed:
      get: { '^_search': search }
      post: { '^_search': search }
EOF
chmod 0644 "$WORK/rest-config.yaml"

# As a Deployment runs them: read-only root, user 10001, no capabilities.
HARDENING=(--read-only --user 10001:10001 --memory 512m --cap-drop ALL --security-opt no-new-privileges
  --network "$NET" --label "rex-smoke=$ID")
CONFIG_MOUNT=(-v "$WORK/rest-config.yaml:/etc/rex/rest-config/rest.yaml:ro" -e REX_CONFIG=/etc/rex/rest-config/rest.yaml)

# --- migrations ------------------------------------------------------------------

for service in "${MIGRATING[@]}"; do
  if podman run --rm --name "$ID-migrate-$service" "${HARDENING[@]}" -e "DATABASE_URL=$DATABASE_URL" \
    "localhost/rex-$service:$TAG" migrate >"$WORK/migrate-$service.log" 2>&1; then
    pass "migrate $service: $(tail -n 1 "$WORK/migrate-$service.log" | jq -r '.msg' 2>/dev/null || tail -n 1 "$WORK/migrate-$service.log")"
  else
    cat "$WORK/migrate-$service.log"
    die "migrate $service"
  fi
done

# The demo website, user, survey and taxa, and a token for the demo user.
TOKEN=$(cd "$ROOT" && DATABASE_URL=$HOST_DATABASE_URL DATA_DIR=$WORK/demo "$NODE" --conditions=development --disable-warning=ExperimentalWarning \
  --input-type=module -e "
    import { createPool } from '@rex/db';
    import { seedDemo } from '@rex/admin';
    import { demoToken } from './scripts/demo-token.ts';
    const pool = createPool(process.env.DATABASE_URL, { max: 2, applicationName: 'rex-smoke' });
    const { privateKey } = await seedDemo(pool, process.env.DATA_DIR);
    await pool.end();
    process.stdout.write(await demoToken(privateKey, { expiresIn: '1h' }));
  " 2>"$WORK/seed.log") || { cat "$WORK/seed.log"; die "seeding the demo data"; }
pass "demo website, user and survey seeded (host → 127.0.0.1:$PG_PORT)"

# --- the services ----------------------------------------------------------------

podman volume create --label "rex-smoke=$ID" "$ID-media" >/dev/null
# A fresh volume belongs to root: give it to 10001 as a pod's fsGroup would.
chown 10001:10001 "$(podman volume inspect --format '{{.Mountpoint}}' "$ID-media")"

GATEWAY_PORT=$(free_port)
# The shared secret goes in a file, not on podman's command line.
# NODE_OPTIONS: a diagnostic report on SIGUSR2 (see the SIGTERM steps), nothing else.
(umask 077 && printf '%s\n' "INTERNAL_AUTH_SECRET=$SECRET" "DATABASE_URL=$DATABASE_URL" MIGRATE_ON_START=false LOG_LEVEL=info \
  "NODE_OPTIONS=--report-on-signal --report-signal=SIGUSR2 --report-directory=/tmp" >"$WORK/services.env")
COMMON_ENV=(--env-file "$WORK/services.env")
start() {
  local name=$1
  shift
  CONTAINERS+=("$name")
  podman run -d --name "$ID-$name" --stop-timeout "$STOP_TIMEOUT" "${HARDENING[@]}" "${COMMON_ENV[@]}" "$@" >/dev/null
}
start records -e "MEDIA_ADDR=$ID-media:50054" "localhost/rex-records:$TAG"
start reports "localhost/rex-reports:$TAG"
start media "${CONFIG_MOUNT[@]}" -e MEDIA_DIR=/data/media -v "$ID-media:/data/media" "localhost/rex-media:$TAG"
start search "${CONFIG_MOUNT[@]}" "localhost/rex-search:$TAG"
start gateway "${CONFIG_MOUNT[@]}" -p "127.0.0.1:$GATEWAY_PORT:8080" \
  -e "RECORDS_ADDR=$ID-records:50051" -e "REPORTS_ADDR=$ID-reports:50052" \
  -e "SEARCH_ADDR=$ID-search:50053" -e "MEDIA_ADDR=$ID-media:50054" "localhost/rex-gateway:$TAG"
GATEWAY=http://127.0.0.1:$GATEWAY_PORT
API=$GATEWAY/index.php/services/rest

# grpc.health.v1 of each gRPC service at its container address, as Kubernetes'
# native gRPC probe asks it (the named service: database reachable and migrated).
grpc_serving() {
  (cd "$ROOT" && "$NODE" --conditions=development --disable-warning=ExperimentalWarning --input-type=module -e "
    import { grpcServing } from './scripts/suite.ts';
    process.exit((await grpcServing(process.argv[1], process.argv[2])) ? 0 : 1);
  " "$1" "$2" 2>/dev/null)
}
container_ip() { podman inspect --format "{{(index .NetworkSettings.Networks \"$NET\").IPAddress}}" "$ID-$1"; }

declare -A HEALTH=([records]="50051 records.v1.RecordsService" [reports]="50052 reports.v1.ReportsService"
  [media]="50054 media.v1.MediaService" [search]="50053 search.v1.SearchService")
ready_started=$SECONDS
for name in records reports media search; do
  read -r port health <<<"${HEALTH[$name]}"
  ok=0
  for _ in $(seq 1 120); do
    [ "$(podman inspect --format '{{.State.Running}}' "$ID-$name")" = true ] || break
    if grpc_serving "$(container_ip "$name"):$port" "$health"; then ok=1; break; fi
    sleep 0.5
  done
  if [ $ok = 1 ]; then pass "$name: grpc.health.v1 $health SERVING"; else podman logs "$ID-$name" 2>&1 | tail -n 20; fail "$name did not become SERVING"; fi
done
ok=0
for _ in $(seq 1 120); do
  curl -fsS -o /dev/null "$GATEWAY/readyz" 2>/dev/null && { ok=1; break; }
  sleep 0.5
done
if [ $ok = 1 ] && curl -fsS -o /dev/null "$GATEWAY/healthz"; then
  pass "gateway: /healthz and /readyz answer 200 on 127.0.0.1:$GATEWAY_PORT (all ready in $((SECONDS - ready_started)) s)"
else
  podman logs "$ID-gateway" 2>&1 | tail -n 20
  die "gateway did not become ready"
fi
[ $FAILED = 0 ] || exit 1

# Every service allocates with the jemalloc its image preloads (Dockerfile, decision 0040).
for name in "${CONTAINERS[@]}"; do
  pid=$(podman inspect --format '{{.State.Pid}}' "$ID-$name")
  grep -q '/libjemalloc\.so' "/proc/$pid/maps" 2>/dev/null || fail "$name runs without jemalloc (/proc/$pid/maps)"
done
[ $FAILED = 1 ] || pass "every service allocates with jemalloc (${CONTAINERS[*]})"
[ $FAILED = 0 ] || exit 1

# --- through the gateway -----------------------------------------------------------

# request METHOD PATH [curl args...]: sets STATUS and BODY (file $WORK/body).
request() {
  local method=$1 path=$2
  shift 2
  STATUS=$(curl -sS -o "$WORK/body" -w '%{http_code}' -X "$method" "$API$path" -H "Authorization: Bearer $TOKEN" "$@" || echo 000)
  BODY=$(cat "$WORK/body")
}

request POST /samples -H 'Content-Type: application/json' -d '{"values": {"survey_id": 1, "date": "2026-05-01", "entered_sref": "SU1234", "entered_sref_system": "OSGB", "smpAttr:2": "sunny"},
  "occurrences": [{"values": {"taxa_taxon_list_id": 1, "occAttr:1": "2"}}]}'
SAMPLE_ID=$(jq -r '.values.id // empty' <<<"$BODY" 2>/dev/null || true)
if [ "$STATUS" = 201 ] && [ -n "$SAMPLE_ID" ]; then pass "POST /samples → 201, sample $SAMPLE_ID"; else fail "POST /samples → $STATUS $BODY"; fi

request GET "/samples/$SAMPLE_ID"
if [ "$STATUS" = 200 ] && [ "$(jq -r '.values.id' <<<"$BODY")" = "$SAMPLE_ID" ] && [ "$(jq -r '.values.entered_sref' <<<"$BODY")" = SU1234 ]; then
  pass "GET /samples/$SAMPLE_ID → 200, the sample as written"
else
  fail "GET /samples/$SAMPLE_ID → $STATUS $BODY"
fi

# The read model is fed from the records outbox by the projector in reports: poll.
found=0
for _ in $(seq 1 60); do
  request GET "/reports/library/samples/sample_list.xml?survey_id=1&limit=10"
  if [ "$STATUS" = 200 ] && jq -e --arg id "$SAMPLE_ID" '.data | map(.sample_id | tostring) | index($id)' <<<"$BODY" >/dev/null 2>&1; then found=1; break; fi
  sleep 0.5
done
if [ $found = 1 ]; then pass "GET /reports/library/samples/sample_list.xml → 200, sample $SAMPLE_ID listed"; else fail "report: $STATUS $BODY"; fi

# A 1×1 PNG: uploaded to the queue, read back, then attached to a new sample.
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82' >"$WORK/frog.png"
request POST /media-queue -F "photo=@$WORK/frog.png;type=image/png"
QUEUED=$(jq -r '.photo.name // empty' <<<"$BODY" 2>/dev/null || true)
if [ "$STATUS" = 200 ] && [ -n "$QUEUED" ]; then pass "POST /media-queue → 200, queued $QUEUED"; else fail "POST /media-queue → $STATUS $BODY"; fi
STATUS=$(curl -sS -o "$WORK/download" -w '%{http_code}' "$API/media-queue/$QUEUED" -H "Authorization: Bearer $TOKEN" || echo 000)
if [ "$STATUS" = 200 ] && cmp -s "$WORK/download" "$WORK/frog.png"; then pass "GET /media-queue/$QUEUED → 200, the same bytes"; else fail "GET /media-queue/$QUEUED → $STATUS"; fi
request POST /samples -H 'Content-Type: application/json' -d "{\"values\": {\"survey_id\": 1, \"date\": \"2026-05-02\", \"entered_sref\": \"SU1234\", \"entered_sref_system\": \"OSGB\"},
  \"media\": [{\"values\": {\"queued\": \"$QUEUED\", \"caption\": \"Frog\"}}]}"
MEDIUM_HREF=$(jq -r '.media[0].href // empty' <<<"$BODY" 2>/dev/null || true)
MEDIUM_ID=$(jq -r '.media[0].values.id // empty' <<<"$BODY" 2>/dev/null || true)
if [ "$STATUS" = 201 ] && [ -n "$MEDIUM_ID" ]; then pass "POST /samples with the queued file → 201, sample_medium $MEDIUM_ID"; else fail "POST /samples with media → $STATUS $BODY"; fi
STATUS=$(curl -sS -o "$WORK/download" -w '%{http_code}' "$API/sample_media/$MEDIUM_ID/file" -H "Authorization: Bearer $TOKEN" || echo 000)
if [ "$STATUS" = 200 ] && cmp -s "$WORK/download" "$WORK/frog.png"; then pass "GET /sample_media/$MEDIUM_ID/file → 200, the same bytes"; else fail "GET /sample_media/$MEDIUM_ID/file → $STATUS (${MEDIUM_HREF:-no href})"; fi

# Nothing may have tried to write outside /tmp and the media volume.
for name in "${CONTAINERS[@]}"; do
  if podman logs "$ID-$name" 2>&1 | grep -qE 'EROFS|read-only file system|EACCES'; then
    fail "$name tried to write where it may not:"
    podman logs "$ID-$name" 2>&1 | grep -E 'EROFS|read-only file system|EACCES' | head -n 3
  fi
done

# --- SIGTERM -----------------------------------------------------------------------

# `podman stop` sends SIGTERM and, after STOP_TIMEOUT, SIGKILL. A process still
# running 3 s before that is asked for a Node.js diagnostic report (SIGUSR2,
# enabled by NODE_OPTIONS above; written to its /tmp) and the database's
# sessions are listed: they show what the shutdown waits for.
diagnose() {
  local name=$1 pid=$2 report
  # `podman stop` holds the container's lock while it waits: signal and read
  # the process from the host (its /tmp through /proc/<pid>/root).
  say "$name still running $((STOP_TIMEOUT - 3)) s after SIGTERM"
  kill -USR2 "$pid" 2>/dev/null || { say "  (cannot signal pid $pid)"; return 0; }
  sleep 1
  report=$(cat /proc/"$pid"/root/tmp/report.*.json 2>/dev/null) || { say "  (no diagnostic report)"; return 0; }
  printf '%s\n' "$report" >"$CACHE/smoke-$name-report.json"
  say "  its diagnostic report: $CACHE/smoke-$name-report.json"
  jq -r '"  stack: " + (.javascriptStack.stack // [] | join(" | ")),
         (.libuv[] | select(.is_active and (.type | IN("tcp", "udp", "timer", "pipe", "process"))) | "  active handle: \(.type) \(.localEndpoint // {} | tostring) -> \(.remoteEndpoint // {} | tostring) \(.ms // "")")' \
    <<<"$report" 2>/dev/null | head -n 30
  say "  the database sessions meanwhile:"
  podman exec "$ID-postgres" psql -U postgres -X -c "SELECT application_name, state, wait_event_type, wait_event,
    now() - query_start AS running, left(query, 100) AS query FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname IS NOT NULL" 2>&1 || true
}

# The gateway first (it stops taking requests), then the backends.
for name in gateway records reports media search; do
  pid=$(podman inspect --format '{{.State.Pid}}' "$ID-$name")
  begin=$(date +%s%N)
  podman stop -t "$STOP_TIMEOUT" "$ID-$name" >/dev/null 2>"$WORK/stop.log" &
  stopper=$!
  while kill -0 "$stopper" 2>/dev/null && [ $((($(date +%s%N) - begin) / 1000000)) -lt $(((STOP_TIMEOUT - 3) * 1000)) ]; do
    sleep 0.1
  done
  if kill -0 "$stopper" 2>/dev/null; then diagnose "$name" "$pid"; fi
  wait "$stopper" || true
  elapsed=$((($(date +%s%N) - begin) / 1000000))
  code=$(podman inspect --format '{{.State.ExitCode}}' "$ID-$name")
  if [ "$code" = 0 ] && [ "$elapsed" -lt $((STOP_TIMEOUT * 1000)) ]; then
    pass "$name stopped on SIGTERM: exit 0 in $elapsed ms"
  else
    podman logs "$ID-$name" 2>&1 | tail -n 10
    fail "$name on SIGTERM: exit code $code after $elapsed ms (timeout ${STOP_TIMEOUT} s)"
  fi
done

if [ $FAILED = 0 ]; then
  say "all steps passed in $((SECONDS - STARTED)) s"
else
  # What each service logged above info (a failed step's cause is usually there): the containers go with the exit.
  for name in "${CONTAINERS[@]}"; do
    logged=$(podman logs "$ID-$name" 2>&1 | grep -v '"level":"info"' | tail -n 20 || true)
    [ -z "$logged" ] || { say "$name logged:"; printf '%s\n' "$logged"; }
  done
  say "FAILED after $((SECONDS - STARTED)) s"
  exit 1
fi
