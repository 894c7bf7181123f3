import { rmSync } from 'node:fs';
import { MOKAPI_MAX_VALUE_BYTES } from '@consign/bus';
import { consignMokapiTopics } from '../kafka/asyncapi-topics';
import {
  MOKAPI_COMMIT_INTERVAL_MS,
  MOKAPI_BUS_TIMEOUT_MS,
  MOKAPI_FETCH_MAX_WAIT_MS,
  MokapiBroker,
  startMokapiBroker,
} from '../kafka/mokapi-broker';
import { AdminApi, newAdminKey } from './admin';
import { ApiClient } from './api-client';
import { Deployment, GATEWAY_READY, ProcessHealth, keysThrough, newApiKey } from './deployments';
import { AppProcess, freePort, startApp, tempDir } from './processes';
import { createTestDatabase } from '../database/test-database';

interface Launch {
  env: Record<string, string>;
  ready: RegExp;
  readyUrl: string;
}

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
  options: {
    env?: Record<string, string>;
    /** Services not to run (a scenario about the others); default: every one. */
    without?: readonly (typeof DISTRIBUTED_SERVICES)[number][];
    /**
     * Start every process with the broker down (its address refuses connections): each is
     * waited for until it is live (/health/live), not ready; `broker.start()` starts the broker.
     */
    brokerDownAtStart?: boolean;
  } = {},
): Promise<Deployment> {
  const database = await createTestDatabase();
  // The topics of docs/asyncapi.yaml, as production declares them (partitions included).
  const topics = consignMokapiTopics();
  let broker: MokapiBroker | undefined = options.brokerDownAtStart
    ? undefined
    : await startMokapiBroker(topics);
  const brokerPort = broker?.port ?? (await freePort());
  const brokers = `127.0.0.1:${brokerPort}`;
  const dirs: string[] = [];
  const envFor = (app: string): Record<string, string> => {
    const dataDir = tempDir(app);
    dirs.push(dataDir);
    return {
      // Mokapi hangs a consumer on any record value over 64 KiB (bounded-serializer.ts): no
      // process hands it one. Real Kafka takes the default, its own limit.
      BUS_MAX_MESSAGE_BYTES: String(MOKAPI_MAX_VALUE_BYTES),
      // Mokapi dies of its own race on busy offset commits (mokapi-broker.ts): commit once a
      // second at most. Real Kafka keeps kafkajs' pace (a commit per batch), the default.
      BUS_COMMIT_INTERVAL_MS: String(MOKAPI_COMMIT_INTERVAL_MS),
      // Each hop waits less on Mokapi at the price of more idle fetches (mokapi-broker.ts).
      KAFKA_FETCH_MAX_WAIT_MS: String(MOKAPI_FETCH_MAX_WAIT_MS),
      // Mokapi has stalled a request-reply past the product's 10 s on a loaded machine.
      BUS_TIMEOUT_MS: String(MOKAPI_BUS_TIMEOUT_MS),
      ...options.env,
      KAFKA_BROKERS: brokers,
      DATA_DIR: dataDir,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    };
  };
  const processes: AppProcess[] = [];
  /** How each process was started, to start it again (a restart, another replica). */
  const launches = new Map<AppProcess, Launch>();
  /** Until ready, or (`live`) only until it serves its health endpoints. */
  const launch = async (app: string, env: Record<string, string>, ready: RegExp, live?: RegExp) => {
    const readyUrl = `http://127.0.0.1:${env.PORT}/health/ready`;
    const started = live
      ? await startApp(app, env, live, 60_000, `http://127.0.0.1:${env.PORT}/health/live`)
      : await startApp(app, env, ready, 60_000, readyUrl);
    launches.set(started, { env, ready, readyUrl });
    return started;
  };
  /** A service process on a port of its own (every process serves health and metrics). */
  const launchService = async (service: string) =>
    launch(
      service,
      { ...envFor(service), PORT: String(await freePort()), HOST: '127.0.0.1' },
      new RegExp(`${service} is ready`),
      options.brokerDownAtStart ? new RegExp(`${service} is listening`) : undefined,
    );
  const stopAll = async () => {
    for (const app of processes.splice(0).reverse()) await app.stop();
    await broker?.stop();
    await database.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Every service starts at once; those that did start are stopped again if one did not.
    const started = await Promise.allSettled(
      DISTRIBUTED_SERVICES.filter((service) => !options.without?.includes(service)).map((service) =>
        launchService(service),
      ),
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
    processes.push(
      await launch(
        'api-gateway',
        gatewayEnv,
        GATEWAY_READY,
        options.brokerDownAtStart ? GATEWAY_READY : undefined,
      ),
    );
    const client = new ApiClient(`http://127.0.0.1:${port}`, apiKey);
    // Administration goes through the running gateway's admin API: nothing is stopped for it.
    const admin = new AdminApi(client.withKey(adminKey));
    let extraGateways = 0;
    /** The output of processes that were stopped and started again. */
    let earlierLogs = '';
    return {
      mode: 'distributed',
      client,
      apiKey,
      adminKey,
      admin,
      env: gatewayEnv,
      logs: () =>
        [
          earlierLogs,
          ...processes.map((p) => `--- ${p.name}\n${p.output()}`),
          `--- broker\n${broker?.logs() ?? '(not started)'}`,
        ].join('\n'),
      ...keysThrough(admin, client),
      async startGateway() {
        // Without PostgreSQL each process has its own embedded database: a second gateway
        // would not share the first one's keys.
        if (!database.url) throw new Error('a second gateway needs PostgreSQL (TEST_DATABASE_URL)');
        const gatewayPort = await freePort();
        extraGateways++;
        const gateway = await launch(
          'api-gateway',
          {
            ...envFor(`api-gateway-${extraGateways}`),
            PORT: String(gatewayPort),
            HOST: '127.0.0.1',
            BOOTSTRAP_API_KEY: apiKey,
            BOOTSTRAP_ADMIN_KEY: adminKey,
          },
          GATEWAY_READY,
        );
        processes.push(gateway);
        return {
          client: new ApiClient(`http://127.0.0.1:${gatewayPort}`, apiKey),
          stop: async () => {
            await gateway.stop();
          },
        };
      },
      busEnv: { KAFKA_BROKERS: brokers },
      databaseUrl: database.url,
      async restartService(name, signal, { replica = 0, downMs = 0 } = {}) {
        const index = processes.map((p, i) => [p, i] as const).filter(([p]) => p.name === name)[
          replica
        ]?.[1];
        if (index === undefined) throw new Error(`no replica ${replica} of ${name}`);
        const old = processes[index];
        const spec = launches.get(old)!;
        earlierLogs += `--- ${name} (stopped with ${signal})\n${old.output()}\n`;
        await old.stop(signal);
        launches.delete(old);
        if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
        processes[index] = await launch(name, spec.env, spec.ready);
      },
      async addReplica(name) {
        if (!(DISTRIBUTED_SERVICES as readonly string[]).includes(name))
          throw new Error(`${name} is not a service`);
        processes.push(await launchService(name));
      },
      processHealth: () =>
        Promise.all(
          processes.map(async (process): Promise<ProcessHealth> => {
            const { name, child } = process;
            const { pid } = child;
            const exited = child.exitCode ?? child.signalCode ?? null;
            if (exited !== null) return { name, pid, exited, ready: 0, body: '' };
            const answer = await fetch(launches.get(process)!.readyUrl, {
              signal: AbortSignal.timeout(5_000),
            })
              .then(async (r) => ({ ready: r.status, body: await r.text() }))
              .catch((error: unknown) => ({ ready: 0, body: String(error) }));
            return { name, pid, exited, ...answer };
          }),
        ),
      broker: {
        stop: async () => {
          await broker?.stop();
        },
        async start() {
          broker = await startMokapiBroker({ ...topics, port: brokerPort });
        },
        freeze: () => broker?.freeze(),
        thaw: () => broker?.thaw(),
        exitStatus: () => broker?.exitStatus(),
        deathCause: () => broker?.deathCause(),
      },
      async stopService(name) {
        const service = processes.find((p) => p.name === name);
        if (!service) throw new Error(`no service ${name}`);
        await service.stop();
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
