import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@consign/platform';
import { errorEnvelope } from '@consign/contracts';
import { setupApiDocs } from './api-docs';

/**
 * A Nest application on Fastify. Fastify's own errors (body over the limit: 413, malformed JSON:
 * 400, unknown route: 404) reach Nest's global filter, which answers them in the envelope.
 */
export async function createHttpApp(
  rootModule: Type<unknown> | ReturnType<typeof Object>,
  config: AppConfig,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: config.BODY_LIMIT_BYTES, trustProxy: true });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: loggerLevels(config.LOG_LEVEL),
    bufferLogs: false,
  });
  rejectNonJsonBodies(app);
  setupApiDocs(app);
  return app;
}

export function loggerLevels(
  level: string,
): ('error' | 'warn' | 'log' | 'debug' | 'verbose' | 'fatal')[] {
  const order = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  return order.slice(0, order.indexOf(level as (typeof order)[number]) + 1);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** A request body that is not JSON is a 415 before any parser or route sees it. */
function rejectNonJsonBodies(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      const length = Number(request.headers['content-length'] ?? 0);
      const hasBody = length > 0 || request.headers['transfer-encoding'] !== undefined;
      const type = request.headers['content-type'];
      if (hasBody && (typeof type !== 'string' || !JSON_TYPE.test(type))) {
        return reply
          .status(415)
          .header('content-type', 'application/json; charset=utf-8')
          .send(errorEnvelope(415, 'Unsupported media type: send the body as application/json.'));
      }
      return undefined;
    });
}
