# One image for every service (client, server-a, server-b, bench): the production builds, run with node.
FROM node:20-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && NX_DAEMON=false NX_NO_CLOUD=true npx nx run-many -t build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0
COPY --from=build --chown=node:node /app /app
USER node
