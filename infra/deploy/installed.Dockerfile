# syntax=docker/dockerfile:1
# The Sluice poller's image, built from the serverless-sluice your service installed (docs/deploying.md,
# "The poller's image"): the context is that installed package, so the image runs the same version
# as the plugin that packages your service. From your service's directory:
#
#   docker build -f node_modules/serverless-sluice/infra/deploy/installed.Dockerfile \
#     -t <account>.dkr.ecr.<region>.amazonaws.com/sluice:<version> node_modules/serverless-sluice
#
# For custom.sluice.deploy.architecture: arm64, add --platform linux/arm64. The repository's own
# infra/deploy/Dockerfile builds the same image from the sources.
ARG NODE_VERSION=22

# 1. The package's production dependencies (it pins their versions; theirs resolve within their
#    ranges, as in a service's install; its devDependencies, which npm would still resolve, are
#    dropped first). No install scripts, then the
#    one install step that is needed, Sluice's patch of kafkajs (docs/how-it-works.md, "How the
#    bounds are enforced"), and the librdkafka engine's binding (an optional dependency), built
#    from source against Debian's libraries (a minute or two) so that Sluice's patch of it applies:
#    a prebuilt binding would run without the bounds on hostile input (docs/failures.md). Should
#    that fail, the image still runs every kafkajs trigger, and a trigger with engine: librdkafka
#    says at start what is missing.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ make python3 pkg-config libssl-dev zlib1g-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev \
 && rm -rf /var/lib/apt/lists/*
COPY package.json ./
COPY infra/patches ./infra/patches
RUN npm pkg delete devDependencies \
 && npm install --omit=dev --ignore-scripts --no-package-lock --no-audit --no-fund && npm cache clean --force \
 && node infra/patches/kafkajs.mjs \
 && (CKJS_LINKING=dynamic npm rebuild @confluentinc/kafka-javascript --build-from-source \
     || echo 'sluice: the librdkafka binding did not install; triggers with engine: librdkafka will not start') \
 && node infra/patches/librdkafka.mjs

# 2. The runtime: Node, those node_modules and the package's compiled dist/, owned by root and run
#    by the unprivileged `node` user of the base image.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    SLUICE_LOG_FORMAT=json
WORKDIR /app
#    The libraries the librdkafka binding was built against, and the CA certificates its TLS
#    verifies brokers with (kafkajs uses Node's own).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates libssl3 zlib1g libzstd1 liblz4-1 libsasl2-2 libcurl4 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY dist ./dist
USER node
# ECS stops a task with SIGTERM: the poller finishes in-flight invocations, commits and leaves its
# groups within the task definition's stopTimeout (initProcessEnabled: node is not PID 1).
CMD ["node", "dist/framework/cli/container.js"]
