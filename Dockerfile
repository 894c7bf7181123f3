# syntax=docker/dockerfile:1
#
# One image for every Consign app; the container's command picks the app:
#   node dist/apps/<app>/src/main.js
# with <app> one of standalone, api-gateway, catalog-service, rating-service, order-service,
# inbound-service, label-tracking-service, carrier-sandbox, admin (`admin migrate` is the
# deployments' migration step) and carrier-cli.
#
# Why one image rather than one per app: every app is a thin main.ts over the same libraries and
# the same node_modules (NestJS, TypeORM, kafkajs make up nearly all of the bytes), so per-app
# images would be the same layers under ten names, built ten times, and could drift apart in
# version. One tag is one coherent release of the whole topology; compose and Kubernetes select
# the app with `command`. Nx still builds per project: `npx nx build api-gateway` builds that app
# and the libraries it imports (targetDefaults.build in nx.json), and the image builds every
# deployable app (projects tagged scope:app).
#
# Lockfile notes: `npm ci` installs exactly package-lock.json. @swc/core is pinned (1.16.18) and
# its native binding comes from the lockfile's per-platform optional packages, as do Nx's; the
# glibc (Debian) base image uses the *-gnu ones. The root optional dependency
# @go-mokapi/linux-x64 is the test-only Kafka-protocol broker: the runtime stage leaves it out
# (--omit=optional), and on a non-x64 builder npm skips it by its os/cpu fields.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

# Every dependency, build tools included (nx, @swc/cli, @swc/core).
FROM base AS deps
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci

# Production dependencies only: what the runtime stage ships.
FROM base AS prod-deps
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --omit=optional

# swc through Nx: each deployable app's build target, after the libraries it depends on.
FROM deps AS build
ENV NX_DAEMON=false NX_NO_CLOUD=true NX_SKIP_NX_CACHE=true
COPY nx.json tsconfig.base.json tsconfig.json .swcrc ./
COPY apps ./apps
COPY libs ./libs
RUN npx nx run-many --target=build --projects=tag:scope:app --parallel=2 --outputStyle=static

FROM base AS runtime
ENV NODE_ENV=production
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The gateway serves /docs from docs/openapi.json, found above dist/ as in the repository;
# rating-service reads its rate cards from libs/rating/rate-cards the same way.
COPY docs ./docs
COPY libs/rating/rate-cards ./libs/rating/rate-cards
COPY package.json ./
# DATA_DIR (./data): the standalone app's embedded database, and where a gateway saves the
# API key it generated when BOOTSTRAP_API_KEY is unset. The only folder the app writes to.
RUN mkdir -p /app/data && chown 1000:1000 /app/data
# The image's `node` user, by number, so that Kubernetes' runAsNonRoot can verify it.
USER 1000:1000
EXPOSE 3000
CMD ["node", "dist/apps/standalone/src/main.js"]
