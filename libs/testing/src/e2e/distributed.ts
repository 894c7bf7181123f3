import { rmSync } from 'node:fs';
import { createTestDatabase } from '@consign/platform';
import { consignMokapiTopics } from '../kafka/asyncapi-topics';
import { startMokapiBroker } from '../kafka/mokapi-broker';
import { AdminApi, BOOTSTRAP_MERCHANT_ID, newAdminKey } from './admin';
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
    const adminKey = newAdminKey();
    const port = await freePort();
    const gatewayEnv: Record<string, string> = {
      ...envFor('api-gateway'),
      PORT: String(port),
      HOST: '127.0.0.1',
      BOOTSTRAP_API_KEY: apiKey,
      BOOTSTRAP_ADMIN_KEY: adminKey,
    };
    const gatewayReady = `http://127.0.0.1:${port}/health/ready`;
    readyUrls.set('api-gateway', gatewayReady);
    processes.push(await startApp('api-gateway', gatewayEnv, GATEWAY_READY, 60_000, gatewayReady));
    const client = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
    // Administration goes through the running gateway's admin API: nothing is stopped for it.
    const admin = new AdminApi(client.withKey(adminKey));
    let extraGateways = 0;
    return {
      mode: 'distributed',
      client,
      apiKey,
      adminKey,
      admin,
      env: gatewayEnv,
      logs: () =>
        [
          ...processes.map((p) => `--- ${p.name}\n${p.output()}`),
          `--- broker\n${broker.logs()}`,
        ].join('\n'),
      async createMerchant(name) {
        return client.withKey((await admin.createMerchant(name)).apiKey);
      },
      async createOperatorKey() {
        return client.withKey((await admin.createKey(BOOTSTRAP_MERCHANT_ID, 'operator')).api_key);
      },
      async createCarrierKey(carrier) {
        return client.withKey(await admin.createCarrierKey(carrier));
      },
      async startGateway() {
        // Without PostgreSQL each process has its own embedded database: a second gateway
        // would not share the first one's keys.
        if (!database.url) throw new Error('a second gateway needs PostgreSQL (TEST_DATABASE_URL)');
        const gatewayPort = await freePort();
        extraGateways++;
        const gateway = await startApp(
          'api-gateway',
          {
            ...envFor(`api-gateway-${extraGateways}`),
            PORT: String(gatewayPort),
            HOST: '127.0.0.1',
            BOOTSTRAP_API_KEY: apiKey,
            BOOTSTRAP_ADMIN_KEY: adminKey,
          },
          GATEWAY_READY,
          60_000,
          `http://127.0.0.1:${gatewayPort}/health/ready`,
        );
        processes.push(gateway);
        return {
          client: new ApiClient(`http://127.0.0.1:${gatewayPort}`, apiKey),
          stop: async () => {
            await gateway.stop();
          },
        };
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
