# One image for every service (client, server-a, server-b, bench): the production builds, run with node.
#
# The base image by digest, so every build starts from the same bytes (a tag such as node:24-slim moves
# with each Node and Debian update). The tag beside it is for people; the digest is what is pulled.
# This digest is the one public projects pin for node:24-bookworm-slim, recorded by one of them as Node
# 24.20.0. tools/bench/test/base-image.spec.ts checks it against Docker Hub wherever Docker Hub answers
# (it could not where this was written: no registry but npm, PyPI, the Go proxy, Maven Central and Debian).
# To update it (or if a pull says the digest is unknown), take the index digest of the tag you want and set both:
#   docker buildx imagetools inspect node:24-bookworm-slim     (the "Digest:" line: sha256:…)
# or pass it for one build with --build-arg NODE_IMAGE=node:<version>-bookworm-slim@sha256:<digest>
# (docs/docker-compose.md, "The base image"; where no registry answers, bench:compose-check builds a fallback).
ARG NODE_IMAGE=node:24.20.0-bookworm-slim@sha256:ba849c60be29959425b8734d57b8b4b7d56f98edd9504c9af091d5281095a71e

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && NX_DAEMON=false NX_NO_CLOUD=true npx nx run-many -t build \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
WORKDIR /app
# .git stays out of the image (.dockerignore): the commit a run records comes from here instead,
#   docker build --build-arg GIT_COMMIT=$(git rev-parse HEAD) .
ARG GIT_COMMIT=
ENV NODE_ENV=production HOST=0.0.0.0 GIT_COMMIT=${GIT_COMMIT}
COPY --from=build --chown=node:node /app /app
USER node
