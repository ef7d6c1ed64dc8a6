# syntax=docker/dockerfile:1
# lectern in one small image: the server compiled to JavaScript, the pages' bundles built in, production packages only,
# run as the unprivileged `node` user with its data in /data. README "운영" explains compose.yaml, which runs it.

# ---- build: compile the server (tsc) and bundle the pages (esbuild), then drop the development packages ----------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY client ./client
COPY public ./public
COPY prompts ./prompts
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: what `node dist/src/main.js` reads, owned by root and read-only to the server -------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    PRELOAD_SAMPLE=true
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
COPY --from=build /app/public ./public
COPY --from=build /app/prompts ./prompts
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Ready = the store answers (GET /readyz); a node that lost Redis leaves the proxy's rotation until it is back.
HEALTHCHECK --interval=10s --timeout=3s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the graceful hand-over (sockets closed, quiz rooms and jobs left for the other node) within 10 s.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
