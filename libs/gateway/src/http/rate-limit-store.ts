import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RateLimitPluginOptions } from '@fastify/rate-limit';
import Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';

type SharedStoreOptions = Pick<RateLimitPluginOptions, 'redis' | 'nameSpace' | 'skipOnError'>;

/**
 * Where the rate limit counts. With REDIS_URL, in Redis (@fastify/rate-limit's Redis store: one
 * Lua script, INCR and PEXPIRE, per request), so every gateway replica draws on the same
 * allowance per key; without it, in the process's memory (N replicas allow N times the limit).
 * A request waits at most about half a second for Redis, as the plugin advises; when Redis does
 * not answer, requests are let through (skipOnError) rather than refused: the limit protects the
 * platform, an outage of its counter store must not take the API down with it.
 */
export function sharedRateLimitStore(
  app: NestFastifyApplication,
  config: GatewayConfig,
): SharedStoreOptions {
  if (!config.REDIS_URL) return {};
  const logger = new Logger('RateLimit');
  const redis = new Redis(config.REDIS_URL, { connectTimeout: 500, maxRetriesPerRequest: 1 });
  // ioredis reports every failed reconnection: say it once per outage, and when it is over.
  let reachable = true;
  redis.on('error', (error: Error) => {
    if (!reachable) return;
    reachable = false;
    logger.warn(`Redis unreachable, requests are not rate-limited meanwhile: ${error.message}`);
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    logger.log('Redis reachable again: rate limit shared across gateways');
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  return { redis, nameSpace: 'consign-rate-limit:', skipOnError: true };
}
