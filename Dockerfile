# One image for every CropCover process; docker-compose.yml picks the entry point per service
# (`dist/processes/<role>.mjs`, `dist/main.mjs` for all roles in one, `dist/cli/<command>.mjs`).
# Node 24 LTS, the version scripts/node24 installs and CI tests (a test holds them equal).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Build: the TypeScript bundled once here (scripts/production-build.ts), then only the production
# dependencies installed beside it. test/src/image/production-image.test.ts runs this stage's RUN
# commands without Docker and starts the result on Node 24.
FROM ${NODE_IMAGE} AS build
WORKDIR /build
COPY . .
ENV APP_DIR=/app
RUN bash scripts/cropcover build "$APP_DIR"

# Run: no compiler, no dev dependencies, no sources; files owned by root, run as the unprivileged
# `node` user. Source maps turn stack traces back into TypeScript lines.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps APP_ENV=production
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/cli/healthcheck.mjs"]
CMD ["node", "dist/main.mjs"]
