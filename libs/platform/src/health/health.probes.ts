import { Controller, Get, Inject, Logger, Res, ServiceUnavailableException } from '@nestjs/common';
import type { HealthCheckResult, HealthCheckService } from '@nestjs/terminus' with {
  'resolution-mode': 'import',
};
import type { FastifyReply } from 'fastify';
import { Readiness } from './readiness';
import { HEALTH_CHECKS } from './terminus.tokens';

/**
 * Kubernetes-style probes, outside the API versions (so with no API key: the gateway asks for one
 * only there), in terminus' JSON
 * (`{status, info, error, details}`): 200 when healthy, 503 otherwise. The reply is sent here
 * rather than thrown, so that no application exception filter rewrites it.
 *
 * (The file is not named `*.controller.ts`: tools/openapi reads every such file the gateway's
 * imports reach as a merchant API controller, and the probes are not part of that API.)
 */
@Controller('health')
export class HealthController {
  private readonly logger = new Logger('Health');
  private wasReady?: boolean;

  constructor(
    @Inject(HEALTH_CHECKS) private readonly health: HealthCheckService,
    private readonly readiness: Readiness,
  ) {}

  /** The process runs and its event loop turns; never the database or broker. */
  @Get('live')
  async live(@Res() reply: FastifyReply): Promise<void> {
    await this.answer(reply, () => this.health.check([]));
  }

  /**
   * Whether to route traffic here: not shutting down, database and broker reachable, outboxes
   * draining, and requests to the services answered.
   */
  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const ready = await this.answer(reply, () =>
      this.health.check(
        this.readiness.shuttingDown
          ? [() => this.readiness.shutdownCheck()]
          : [
              () => this.readiness.shutdownCheck(),
              () => this.readiness.databaseCheck(),
              () => this.readiness.brokerCheck(),
              () => this.readiness.outboxCheck(),
              () => this.readiness.busCheck(),
            ],
      ),
    );
    // Log transitions only (probes come every few seconds); the first answer only when not ready.
    const changed = ready.ok !== (this.wasReady ?? true);
    if (changed && !this.readiness.shuttingDown)
      if (ready.ok) this.logger.log('ready again');
      else this.logger.warn(`not ready: ${JSON.stringify(ready.body.error)}`);
    this.wasReady = ready.ok;
  }

  private async answer(
    reply: FastifyReply,
    check: () => Promise<HealthCheckResult>,
  ): Promise<{ ok: boolean; body: HealthCheckResult }> {
    let status = 200;
    let body: HealthCheckResult;
    try {
      body = await check();
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      status = 503;
      body = error.getResponse() as HealthCheckResult;
    }
    await reply
      .status(status)
      .header('cache-control', 'no-store')
      .header('content-type', 'application/json; charset=utf-8')
      .send(body);
    return { ok: status === 200, body };
  }
}
