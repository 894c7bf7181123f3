# One image for every Consign app; the container command picks the app:
#   node dist/apps/<app>/src/main.js   (standalone, api-gateway, catalog-service, rating-service,
#   order-service, inbound-service, label-tracking-service, carrier-sandbox, admin, carrier-cli)
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/docs ./docs
# rating-service reads its rate cards here (found above dist/, as in the repository).
COPY --from=build /app/libs/rating/rate-cards ./libs/rating/rate-cards
COPY package.json ./
USER node
EXPOSE 3000
CMD ["node", "dist/apps/standalone/src/main.js"]
