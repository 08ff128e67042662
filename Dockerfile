# One image for every role (ROLE=api|worker|all): the built site, the server and its runtime dependencies.
FROM node:24-bookworm-slim
WORKDIR /app
# Debian's ffmpeg/ffprobe parse uploads and downloaded inputs: a build the distribution keeps patched (security.md).
RUN apt-get update && apt-get install -y --no-install-recommends ffmpeg && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev
COPY . .
# The static site is built into the image; in production dist/ is also what goes to the CDN.
# The server is built to plain JavaScript (dist-server/), so Node runs it without a TypeScript loader.
RUN node scripts/build-site.mjs && node scripts/build-server.mjs
ENV HOST=0.0.0.0 PORT=8787 DATA_DIR=/app/data
EXPOSE 8787
# node itself (not npm) so SIGTERM reaches the server's graceful shutdown.
CMD ["node", "dist-server/main.mjs"]
