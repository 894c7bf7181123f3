import { DynamicModule, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { HealthController } from './health.probes';
import { Readiness } from './readiness';
import { ShutdownState } from './shutdown-state';
import { HEALTH_CHECKS, HEALTH_INDICATORS } from './terminus.tokens';

/**
 * Once shutdown began, every response says `Connection: close`: a keep-alive client then opens
 * its next request on a new connection, which the load balancer (no longer routing here once
 * readiness fails) sends to another replica, and no idle keep-alive socket is left to be cut
 * when the listener closes. A Fastify hook rather than Nest middleware: nothing is added to the
 * request path but one property read.
 */
@Injectable()
class CloseConnectionsWhenShuttingDown implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly shutdown: ShutdownState,
  ) {}

  onModuleInit(): void {
    const instance: unknown = this.adapterHost.httpAdapter?.getInstance();
    if (!isFastify(instance)) return;
    // The callback form: no promise per request.
    instance.addHook('onSend', (_request, reply, payload, done) => {
      if (this.shutdown.shuttingDown) reply.header('connection', 'close');
      done(null, payload);
    });
  }
}

function isFastify(instance: unknown): instance is FastifyInstance {
  return (
    typeof instance === 'object' &&
    instance !== null &&
    typeof (instance as { addHook?: unknown }).addHook === 'function'
  );
}

@Module({})
export class HealthModule {}

/**
 * `GET /health/live` and `GET /health/ready` (see HealthController), for every app; needs the
 * PlatformModule (configuration, database host, shutdown state).
 *
 * Asynchronous because `@nestjs/terminus` 12 is an ES module: Node 20.19+ loads it from this
 * CommonJS code, but jest's module loader does not, so it is loaded only when an app builds its
 * module, never merely by importing `@consign/platform`.
 */
export async function healthModule(): Promise<DynamicModule> {
  const terminus = await import('@nestjs/terminus');
  return {
    module: HealthModule,
    // Terminus would log every failing probe; HealthController logs transitions instead.
    imports: [terminus.TerminusModule.forRoot({ logger: false })],
    controllers: [HealthController],
    providers: [
      { provide: HEALTH_CHECKS, useExisting: terminus.HealthCheckService },
      { provide: HEALTH_INDICATORS, useExisting: terminus.HealthIndicatorService },
      Readiness,
      CloseConnectionsWhenShuttingDown,
    ],
  };
}
