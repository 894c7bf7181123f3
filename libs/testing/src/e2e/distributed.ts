import { rmSync } from 'node:fs';
import { createTestDatabase } from '@consign/platform';
import { consignMokapiTopics } from '../kafka/asyncapi-topics';
import { startMokapiBroker } from '../kafka/mokapi-broker';
import {
  BOOTSTRAP_MERCHANT_ID,
  createCarrierKeyWithCli,
  createKeyWithCli,
  createMerchantWithCli,
} from './admin';
import { ApiClient } from './api-client';
import { Deployment, GATEWAY_READY, ProcessHealth, newApiKey } from './deployments';
import { AppProcess, freePort, startApp, tempDir } from './processes';

/** The services that run as their own processes (each prints "<name> is ready" once ready). */
export const DISTRIBUTED_SERVICES = [
  'catalog-service',
  'rating-service',
  'order-service',
  'inbound-service',
  'label-tracking-service',
  'carrier-sandbox',
  'webhook-dispatcher',
] as const;

/**
 * Consign distributed: the Kafka-protocol test broker on loopback, every service and the gateway
 * as separate processes, on one fresh test database (PostgreSQL; each process on its own
 * embedded database when PostgreSQL is unreachable, which works because no two share a schema).
 */
export async function startDistributed(
  /** `env` goes to every process (gateway and services). */
  options: { env?: Record<string, string> } = {},
): Promise<Deployment> {
  const database = await createTestDatabase();
  // The topics of docs/asyncapi.yaml, as production declares them (partitions included).
  const topics = consignMokapiTopics();
  let broker = await startMokapiBroker(topics);
  const dirs: string[] = [];
  const envFor = (app: string): Record<string, string> => {
    const dataDir = tempDir(app);
    dirs.push(dataDir);
    return {
      ...options.env,
      KAFKA_BROKERS: broker.brokers,
      DATA_DIR: dataDir,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
  };
  const processes: AppProcess[] = [];
  const readyUrls = new Map<string, string>();
  const serviceEnvs = new Map<string, Record<string, string>>();
  const stopAll = async () => {
    for (const app of processes.splice(0).reverse()) await app.stop();
    await broker.stop();
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Every service starts at once; those that did start are stopped again if one did not.
    const started = await Promise.allSettled(
      DISTRIBUTED_SERVICES.map(async (service) => {
        // Every process serves its health endpoints on a port of its own.
        const port = await freePort();
        readyUrls.set(service, `http://127.0.0.1:${port}/health/ready`);
        const env = { ...envFor(service), PORT: String(port), HOST: '127.0.0.1' };
        serviceEnvs.set(service, env);
        return startApp(
          service,
          env,
          new RegExp(`${service} is ready`),
          60_000,
          `http://127.0.0.1:${port}/health/ready`,
        );
      }),
    );
    for (const outcome of started)
      if (outcome.status === 'fulfilled') processes.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const apiKey = newApiKey();
    const port = await freePort();
    const gatewayEnv: Record<string, string> = {
      ...envFor('api-gateway'),
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_API_KEY: apiKey,
    };
    const gatewayReady = `http://127.0.0.1:${port}/health/ready`;
    readyUrls.set('api-gateway', gatewayReady);
    processes.push(await startApp('api-gateway', gatewayEnv, GATEWAY_READY, 60_000, gatewayReady));
    const client = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
    let earlierLogs = '';
    /**
     * Runs the admin CLI on the gateway's database (merchants and keys). Without PostgreSQL each
     * process has its own embedded database, owned by that process: the gateway stops meanwhile.
     */
    const admin = async <T>(run: (env: Record<string, string>) => Promise<T>): Promise<T> => {
      if (database.url) return run({ DATABASE_URL: database.url });
      const index = processes.findIndex((p) => p.name === 'api-gateway');
      earlierLogs += `--- api-gateway (stopped for the admin CLI)\n${processes[index].output()}\n`;
      await processes[index].stop();
      const result = await run({ DATA_DIR: gatewayEnv.DATA_DIR });
      processes[index] = await startApp(
        'api-gateway',
        gatewayEnv,
        GATEWAY_READY,
        60_000,
        gatewayReady,
      );
      return result;
    };
    return {
      mode: 'distributed',
      client,
      apiKey,
      logs: () =>
        [
          earlierLogs,
          ...processes.map((p) => `--- ${p.name}\n${p.output()}`),
          `--- broker\n${broker.logs()}`,
        ].join('\n'),
      async createMerchant(name) {
        return client.withKey((await admin((env) => createMerchantWithCli(env, name))).apiKey);
      },
      async createOperatorKey() {
        return client.withKey(
          await admin((env) => createKeyWithCli(env, BOOTSTRAP_MERCHANT_ID, 'operator')),
        );
      },
      async createCarrierKey(carrier) {
        return client.withKey(await admin((env) => createCarrierKeyWithCli(env, carrier)));
      },
      busEnv: { KAFKA_BROKERS: broker.brokers },
      processHealth: () =>
        Promise.all(
          processes.map(async ({ name, child }): Promise<ProcessHealth> => {
            const exited = child.exitCode ?? child.signalCode ?? null;
            if (exited !== null) return { name, exited, ready: 0, body: '' };
            const answer = await fetch(readyUrls.get(name)!, { signal: AbortSignal.timeout(5_000) })
              .then(async (r) => ({ ready: r.status, body: await r.text() }))
              .catch((error: unknown) => ({ ready: 0, body: String(error) }));
            return { name, exited, ...answer };
          }),
        ),
      broker: {
        stop: () => broker.stop(),
        async start() {
          broker = await startMokapiBroker({ ...topics, port: broker.port });
        },
        freeze: () => broker.freeze(),
        thaw: () => broker.thaw(),
      },
      async stopService(name) {
        const service = processes.find((p) => p.name === name);
        if (!service) throw new Error(`no service ${name}`);
        await service.stop();
      },
      async restartService(name, signal = 'SIGTERM') {
        const index = processes.findIndex((p) => p.name === name);
        const env = serviceEnvs.get(name);
        if (index < 0 || !env) throw new Error(`no service ${name}`);
        earlierLogs += `--- ${name} (stopped with ${signal})\n${processes[index].output()}\n`;
        await processes[index].stop(signal);
        processes[index] = await startApp(
          name,
          env,
          new RegExp(`${name} is ready`),
          60_000,
          readyUrls.get(name),
        );
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
