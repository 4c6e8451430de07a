# Container images of the rex services, one target per service, each image
# named rex-<service>:
#
#   podman build --target gateway -t rex-gateway:0.1.0 --build-arg VERSION=0.1.0 .
#
# (scripts/images.sh builds all five). The TypeScript runs as it is, stripped of
# its types by Node.js 24, which refuses to do that under node_modules: the
# workspace keeps pnpm's layout (workspace packages stay in libs/ and services/,
# linked from node_modules), so `pnpm deploy` is not used. Each image holds the
# production dependencies of its own service (no embedded PostgreSQL, no test
# tools, no other service's packages), runs as user 10001 with node as PID 1, and writes nothing outside
# /tmp (a read-only root filesystem works). gRPC services answer Kubernetes'
# native gRPC probes (grpc.health.v1) and the gateway /healthz and /readyz, so
# no shell or tool is needed in the container for probes.
#
# Run `migrate` as the argument to apply a service's schema migrations and exit
# (e.g. `podman run --rm -e DATABASE_URL=… rex-records migrate`).

ARG PNPM_VERSION=10.34.9

# --- build stages --------------------------------------------------------------

# Every package.json of the workspace and nothing else, so that the dependency
# layers below are rebuilt only when a manifest or the lockfile changes.
FROM node:24-bookworm-slim AS manifests
WORKDIR /src
COPY . .
RUN mkdir /manifests \
 && find . -name package.json -not -path '*/node_modules/*' -print0 | tar -c --null -T - -f - | tar -x -C /manifests

# pnpm and the store of every production package of the lockfile, fetched once
# for all services. `pnpm fetch` also fills a virtual store with the packages
# of every project: it goes, or each image would hold them all. This stage is
# the only one that uses the network; a build behind a TLS-intercepting proxy
# mounts an npmrc with cafile= at /usr/local/etc/npmrc (scripts/images.sh does),
# so nothing of it stays in an image.
FROM node:24-bookworm-slim AS pnpm
ARG PNPM_VERSION
RUN npm install --global --no-fund --no-audit --no-update-notifier "pnpm@${PNPM_VERSION}" \
 && pnpm --version
WORKDIR /app
ENV CI=true
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
# Dependencies rex patches (pnpm-workspace.yaml's patchedDependencies), applied as they are installed.
COPY patches/ ./patches/
RUN pnpm fetch --prod --store-dir /pnpm/store --reporter=append-only \
 && rm -rf node_modules
COPY --from=manifests /manifests/ ./
COPY scripts/prune-modules.sh /usr/local/lib/prune-modules.sh

# The production dependencies of one service and of the workspace packages it
# uses, installed offline from the store, in the workspace layout (pnpm always
# adds the root project's own dependencies: @grpc/grpc-js and links to
# @rex/db and @rex/admin, whose sources are not copied). Dropped: what no
# service runs (scripts/prune-modules.sh: TypeScript files, source maps,
# Markdown, a dependency's test data); licence files stay.
FROM pnpm AS gateway-modules
RUN pnpm install --offline --prod --frozen-lockfile --store-dir /pnpm/store --reporter=append-only --filter "@rex/gateway..." --filter "@rex/admin..." \
 && sh /usr/local/lib/prune-modules.sh

FROM pnpm AS records-modules
RUN pnpm install --offline --prod --frozen-lockfile --store-dir /pnpm/store --reporter=append-only --filter "@rex/records..." \
 && sh /usr/local/lib/prune-modules.sh

FROM pnpm AS reports-modules
RUN pnpm install --offline --prod --frozen-lockfile --store-dir /pnpm/store --reporter=append-only --filter "@rex/reports..." \
 && sh /usr/local/lib/prune-modules.sh

FROM pnpm AS media-modules
RUN pnpm install --offline --prod --frozen-lockfile --store-dir /pnpm/store --reporter=append-only --filter "@rex/media..." \
 && sh /usr/local/lib/prune-modules.sh

FROM pnpm AS search-modules
RUN pnpm install --offline --prod --frozen-lockfile --store-dir /pnpm/store --reporter=append-only --filter "@rex/search..." \
 && sh /usr/local/lib/prune-modules.sh

# Every TypeScript module of the images with its types stripped ahead of time
# (libs/typescript-cache): the services load these copies, so Node.js never
# loads its own type stripper, which keeps about 20 MB of a process's memory.
FROM node:24-bookworm-slim AS stripped
WORKDIR /src
COPY libs/ libs/
COPY services/ services/
COPY tools/ tools/
RUN node --disable-warning=ExperimentalWarning libs/typescript-cache/src/strip.ts libs services tools

# --- the runtime ---------------------------------------------------------------

# Debian slim with the node binary of node:24-bookworm-slim and nothing else of
# it: npm, which the image never runs, would add 19 MB (a layer cannot take
# away what a lower one holds). Same Debian release and C++ runtime as the
# build stages, whose native code runs here as it is: the media image's sharp
# loads its prebuilt libvips (@img/sharp-linux-x64 and
# @img/sharp-libvips-linux-x64, glibc x64 packages `pnpm fetch` takes from the
# lockfile for this platform); with S3 storage the media service copies an
# image to /tmp while it makes its smaller images.
#
# Every process allocates with jemalloc (Debian's libjemalloc2, preloaded), not
# glibc's malloc: the buffers a burst of uploads leaves are freed by the idle
# collection, but glibc keeps their pages (80–100 MB of the gateway's resident
# memory after one), where jemalloc's background thread gives them back within
# seconds; two arenas, not four per core of the node the pod runs on
# (docs/decisions/0040-the-images-allocate-with-jemalloc.md).
FROM debian:bookworm-slim AS runtime
COPY --from=node:24-bookworm-slim /usr/local/bin/node /usr/local/bin/node
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libjemalloc2 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/debconf/*-old /var/lib/dpkg/*-old /var/log/apt /var/log/dpkg.log \
 && ln -s "$(dpkg -L libjemalloc2 | grep '/libjemalloc\.so\.2$')" /usr/local/lib/libjemalloc.so.2 \
 && groupadd --gid 10001 rex \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin rex \
 && node --version
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 \
    MALLOC_CONF=background_thread:true,narenas:2
ENV NODE_ENV=production \
    GRPC_HOST=0.0.0.0 \
    GATEWAY_HOST=0.0.0.0 \
    METRICS_HOST=0.0.0.0
WORKDIR /app
COPY package.json ./
COPY protos/ protos/
USER 10001:10001
LABEL org.opencontainers.image.licenses="GPL-3.0-or-later" \
      org.opencontainers.image.vendor="rex" \
      org.opencontainers.image.base.name="docker.io/library/debian:bookworm-slim"

# --- one target per service ----------------------------------------------------
# Each: its node_modules (root virtual store and per-package links), the
# workspace libraries' sources, its own sources; the version last, so that a new
# version rebuilds only the final metadata layers. Each ENTRYPOINT turns V8's
# memory reducer off (Node.js refuses the option in NODE_OPTIONS), as the suite
# does (SERVICE_V8_FLAGS in scripts/suite.ts; decision 0047).

FROM runtime AS gateway
COPY --from=gateway-modules /app/node_modules/ node_modules/
COPY --from=gateway-modules /app/libs/ libs/
COPY --from=gateway-modules /app/services/gateway/ services/gateway/
COPY libs/ libs/
COPY services/gateway/ services/gateway/
# The admin CLI (node /app/tools/admin/src/main.ts) and the records sources it imports (schema and fixtures).
COPY --from=gateway-modules /app/tools/admin/ tools/admin/
COPY --from=gateway-modules /app/services/records/ services/records/
COPY tools/admin/src/ tools/admin/src/
COPY services/records/src/ services/records/src/
COPY --from=stripped /src/.rex/stripped/ .rex/stripped/
WORKDIR /app/services/gateway
EXPOSE 8080 9464
ENTRYPOINT ["node", "--conditions=development", "--disable-warning=ExperimentalWarning", "--no-memory-reducer", "--import", "/app/libs/typescript-cache/src/register.mjs", "--import", "@rex/telemetry/register", "/app/services/gateway/src/main.ts"]
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=""
ENV REX_VERSION=$VERSION
LABEL org.opencontainers.image.title="rex-gateway" \
      org.opencontainers.image.description="rex gateway: the Record-Exchange REST API over HTTP" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$REVISION \
      org.opencontainers.image.source=$SOURCE

FROM runtime AS records
COPY --from=records-modules /app/node_modules/ node_modules/
COPY --from=records-modules /app/libs/ libs/
COPY --from=records-modules /app/services/records/ services/records/
COPY libs/ libs/
COPY services/records/ services/records/
COPY --from=stripped /src/.rex/stripped/ .rex/stripped/
WORKDIR /app/services/records
EXPOSE 50051 9464
ENTRYPOINT ["node", "--conditions=development", "--disable-warning=ExperimentalWarning", "--no-memory-reducer", "--import", "/app/libs/typescript-cache/src/register.mjs", "--import", "@rex/telemetry/register", "/app/services/records/src/main.ts"]
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=""
ENV REX_VERSION=$VERSION
LABEL org.opencontainers.image.title="rex-records" \
      org.opencontainers.image.description="rex records: samples, occurrences, locations and survey structure (gRPC)" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$REVISION \
      org.opencontainers.image.source=$SOURCE

FROM runtime AS reports
COPY --from=reports-modules /app/node_modules/ node_modules/
COPY --from=reports-modules /app/libs/ libs/
COPY --from=reports-modules /app/services/reports/ services/reports/
COPY libs/ libs/
COPY services/reports/ services/reports/
COPY --from=stripped /src/.rex/stripped/ .rex/stripped/
WORKDIR /app/services/reports
EXPOSE 50052 9464
ENTRYPOINT ["node", "--conditions=development", "--disable-warning=ExperimentalWarning", "--no-memory-reducer", "--import", "/app/libs/typescript-cache/src/register.mjs", "--import", "@rex/telemetry/register", "/app/services/reports/src/main.ts"]
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=""
ENV REX_VERSION=$VERSION
LABEL org.opencontainers.image.title="rex-reports" \
      org.opencontainers.image.description="rex reports: the report library on a read model of the records (gRPC)" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$REVISION \
      org.opencontainers.image.source=$SOURCE

FROM runtime AS media
COPY --from=media-modules /app/node_modules/ node_modules/
COPY --from=media-modules /app/libs/ libs/
COPY --from=media-modules /app/services/media/ services/media/
COPY libs/ libs/
COPY services/media/ services/media/
COPY --from=stripped /src/.rex/stripped/ .rex/stripped/
WORKDIR /app/services/media
# Local media files: the default REX_DATA_DIR (.rex under the working directory)
# is on the read-only root filesystem; /tmp/rex keeps a bare `run` working, and a
# deployment mounts a volume and sets MEDIA_DIR (or uses MEDIA_STORAGE=s3).
ENV REX_DATA_DIR=/tmp/rex
EXPOSE 50054 9464
ENTRYPOINT ["node", "--conditions=development", "--disable-warning=ExperimentalWarning", "--no-memory-reducer", "--import", "/app/libs/typescript-cache/src/register.mjs", "--import", "@rex/telemetry/register", "/app/services/media/src/main.ts"]
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=""
ENV REX_VERSION=$VERSION
LABEL org.opencontainers.image.title="rex-media" \
      org.opencontainers.image.description="rex media: the media queue and stored files (gRPC)" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$REVISION \
      org.opencontainers.image.source=$SOURCE

FROM runtime AS search
COPY --from=search-modules /app/node_modules/ node_modules/
COPY --from=search-modules /app/libs/ libs/
COPY --from=search-modules /app/services/search/ services/search/
COPY libs/ libs/
COPY services/search/ services/search/
COPY --from=stripped /src/.rex/stripped/ .rex/stripped/
WORKDIR /app/services/search
EXPOSE 50053 9464
ENTRYPOINT ["node", "--conditions=development", "--disable-warning=ExperimentalWarning", "--no-memory-reducer", "--import", "/app/libs/typescript-cache/src/register.mjs", "--import", "@rex/telemetry/register", "/app/services/search/src/main.ts"]
ARG VERSION=0.0.0-dev
ARG REVISION=unknown
ARG SOURCE=""
ENV REX_VERSION=$VERSION
LABEL org.opencontainers.image.title="rex-search" \
      org.opencontainers.image.description="rex search: the filtered proxy to the search index (gRPC)" \
      org.opencontainers.image.version=$VERSION \
      org.opencontainers.image.revision=$REVISION \
      org.opencontainers.image.source=$SOURCE
