# One image for every CropCover process; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim
WORKDIR /app
COPY . .
RUN npx --yes pnpm@10.34.9 install --frozen-lockfile && bash scripts/cropcover build-console
ENV NODE_ENV=production
USER node
