# syntax=docker/dockerfile:1
# One image for every Anvil process. Build it once per process:
#   docker build --build-arg SERVICE=gateway  -t anvil/gateway .
#   docker build --build-arg SERVICE=registry -t anvil/registry .
# SERVICE is `gateway` or a directory under services/ (identity, registry, project-transfer,
# work-items, pipelines, alerting). Configuration comes only from the environment (see DESIGN.md).
# The image runs the compiled fleet (`npm run build`: scripts/build.ts) on Node's current LTS line.

ARG NODE_VERSION=24

# --- manifests: only package.json files and the lockfile, so the install layers below stay cached
#     until a dependency changes (a source edit changes nothing this stage outputs)
FROM node:${NODE_VERSION}-slim AS manifests
WORKDIR /app
COPY . .
RUN find . -type f ! -name package.json ! -name pnpm-lock.yaml ! -name pnpm-workspace.yaml -delete \
 && find . -type d -empty -delete

# --- build: every dependency (the compiler among them), then the sources compiled into dist/
FROM node:${NODE_VERSION}-slim AS build
ENV CI=true \
    npm_config_update_notifier=false \
    npm_config_cache=/tmp/.npm
WORKDIR /app
COPY --from=manifests /app ./
RUN npx --yes pnpm@10.34.9 install --frozen-lockfile --prod=false
COPY . .
RUN npm run build

# --- runtime: production dependencies in one flat node_modules (where the bundles' requires find
#     them: pnpm's hoisted layout) and dist/; no sources, tests, benches or devDependencies
FROM node:${NODE_VERSION}-slim AS runtime
ENV NODE_ENV=production \
    CI=true \
    HOST=0.0.0.0 \
    STORAGE_DIR=/data/files \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true \
    npm_config_update_notifier=false \
    npm_config_cache=/tmp/.npm
WORKDIR /app

COPY --from=manifests /app ./
RUN npx --yes pnpm@10.34.9 install --frozen-lockfile --prod --config.node-linker=hoisted \
 && rm -rf /tmp/.npm /root/.npm /root/.cache /root/.local/share/pnpm

COPY --from=build /app/dist ./dist

# Writable at run time: /data (objects when STORAGE_DRIVER=local).
RUN mkdir -p /data/files && chown -R node:node /data
USER node

ARG SERVICE=gateway
ENV SERVICE=${SERVICE}
LABEL org.opencontainers.image.title="anvil-${SERVICE}" \
      org.opencontainers.image.description="Anvil: a GitLab-compatible REST API"

# exec: the process gets SIGTERM directly and shuts down cleanly. The settings before it are
# libs/runtime/src/process-env.ts (PROCESS_ENV): fewer malloc arenas, a small young generation.
CMD ["sh", "-c", "if [ \"$SERVICE\" = gateway ]; then MALLOC_ARENA_MAX=1 NODE_OPTIONS=\"$NODE_OPTIONS --max-semi-space-size=2\" exec node --expose-gc dist/gateway.js; else MALLOC_ARENA_MAX=2 NODE_OPTIONS=\"$NODE_OPTIONS --max-semi-space-size=4\" exec node \"dist/$SERVICE.js\"; fi"]
