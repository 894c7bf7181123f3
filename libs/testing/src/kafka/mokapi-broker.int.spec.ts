import {
  Controller,
  DynamicModule,
  INestApplicationContext,
  INestMicroservice,
  Module,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  ClientKafka,
  ClientsModule,
  Ctx,
  EventPattern,
  KafkaContext,
  MessagePattern,
  Payload,
  RpcException,
} from '@nestjs/microservices';
import { readFileSync } from 'node:fs';
import { lastValueFrom, timeout } from 'rxjs';
import { replyTopicOf } from '@consign/contracts';
import { kafkaClientOptions, kafkaServerOptions } from '@consign/bus';
import {
  MokapiBroker,
  groupMembers,
  isMokapiCommitRace,
  mokapiDeathCause,
  renderMokapiAsyncApi,
  startMokapiBroker,
} from './mokapi-broker';

/*
 * Spike: NestJS's Kafka transport (kafkajs) over the Mokapi mock broker on loopback, with the
 * options the apps use. Request-reply, events, keyed messages, RPC errors; start-up and
 * round-trip latencies are printed at the end.
 */

const ECHO = 'spike.echo.v1';
const EVENT = 'spike.event.v1';
const KEYED = 'spike.keyed.v1';
const CLIENT = Symbol('spike-kafka-client');
const REPLY_TIMEOUT_MS = 10_000;

interface Received {
  topic: string;
  key: string | null;
  value: unknown;
  headers: Record<string, unknown>;
}

/** What the server's event handlers saw, with a way to wait for the next one. */
class Inbox {
  private readonly items: Received[] = [];
  private readonly waiters: Array<{ topic: string; resolve: (item: Received) => void }> = [];

  push(item: Received): void {
    const index = this.waiters.findIndex((waiter) => waiter.topic === item.topic);
    if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(item);
    else this.items.push(item);
  }

  next(topic: string, withinMs = REPLY_TIMEOUT_MS): Promise<Received> {
    const index = this.items.findIndex((item) => item.topic === topic);
    if (index >= 0) return Promise.resolve(this.items.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no ${topic} event within ${withinMs} ms`)),
        withinMs,
      );
      this.waiters.push({ topic, resolve: (item) => (clearTimeout(timer), resolve(item)) });
    });
  }
}

const inbox = new Inbox();

function received(data: unknown, context: KafkaContext): Received {
  const message = context.getMessage();
  // Nest's KafkaParser has already decoded key and headers to strings (typed as Buffers).
  const key = message.key === null || message.key === undefined ? null : String(message.key);
  return { topic: context.getTopic(), key, value: data, headers: { ...message.headers } };
}

@Controller()
class SpikeController {
  @MessagePattern(ECHO)
  echo(@Payload() data: unknown, @Ctx() context: KafkaContext): unknown {
    if (typeof data === 'object' && data !== null && (data as { fail?: unknown }).fail === true) {
      throw new RpcException({ code: 409, message: 'spike conflict' });
    }
    const seen = received(data, context);
    // Not `key`: Nest's serializer takes any object with a top-level `key` or `value` property for
    // a { key, value, headers } Kafka message, so a reply { key, ... } would arrive as null.
    return {
      echoed: data,
      messageKey: seen.key,
      correlation: seen.headers['x-correlation-id'] ?? null,
    };
  }

  @EventPattern(EVENT)
  onEvent(@Payload() data: unknown, @Ctx() context: KafkaContext): void {
    inbox.push(received(data, context));
  }

  @EventPattern(KEYED)
  onKeyed(@Payload() data: unknown, @Ctx() context: KafkaContext): void {
    inbox.push(received(data, context));
  }
}

@Module({ controllers: [SpikeController] })
class SpikeServerModule {}

function clientModule(brokers: string): DynamicModule {
  @Module({})
  class SpikeClientModule {}
  return {
    module: SpikeClientModule,
    imports: [
      ClientsModule.register([
        {
          name: CLIENT,
          ...kafkaClientOptions({
            clientId: 'spike-gateway',
            groupId: 'spike-gateway',
            brokers: [brokers],
          }),
        },
      ]),
    ],
  };
}

const PAYLOAD = {
  id: 42,
  amount: 1234.5,
  negative: -0.25,
  big: 9007199254740991,
  text: 'Zoë ✓ "quoted" \\ back',
  nested: { deep: { list: [1, 'two', { three: 3 }, null, true], empty: {} } },
  nothing: null,
};

const timings: Record<string, number | string> = {};
let broker: MokapiBroker | undefined;
let server: INestMicroservice | undefined;
let clientApp: INestApplicationContext | undefined;
let client: ClientKafka;

function request<T>(data: unknown): Promise<T> {
  return lastValueFrom(client.send<T>(ECHO, data).pipe(timeout(REPLY_TIMEOUT_MS)));
}

function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `n=${sorted.length} min=${sorted[0]} median=${at(0.5)} p95=${at(0.95)} max=${sorted[sorted.length - 1]} ms`;
}

async function closeAll(): Promise<void> {
  await clientApp?.close();
  clientApp = undefined;
  await server?.close();
  server = undefined;
  await broker?.stop();
}

describe('renderMokapiAsyncApi', () => {
  it('declares one kafka server and one schema-less channel per topic, reply topics included', () => {
    const doc = renderMokapiAsyncApi({
      topics: ['order.create.v1', { name: 'order.events.v1', partitions: 3 }],
      replyTopics: [replyTopicOf('order.create.v1')],
      host: '127.0.0.1:9999',
      title: 'unit',
      rebalanceDelayMs: 0,
    });
    expect(doc).toEqual({
      asyncapi: '3.0.0',
      info: { title: 'unit', version: '1.0.0' },
      servers: {
        broker: {
          host: '127.0.0.1:9999',
          protocol: 'kafka',
          // 0 would mean Mokapi's default of 3000 ms
          bindings: { kafka: { 'group.initial.rebalance.delay.ms': 1 } },
        },
      },
      channels: {
        'order.create.v1': { address: 'order.create.v1' },
        'order.events.v1': { address: 'order.events.v1', bindings: { kafka: { partitions: 3 } } },
        'order.create.v1.reply': {
          address: 'order.create.v1.reply',
          description: 'Request-reply replies (null values allowed): no schema.',
        },
      },
    });
  });

  it('rejects invalid and duplicate topic names', () => {
    expect(() => renderMokapiAsyncApi({ topics: ['bad topic'] })).toThrow(
      /invalid Kafka topic name/,
    );
    expect(() => renderMokapiAsyncApi({ topics: ['a.v1'], replyTopics: ['a.v1'] })).toThrow(
      /declared twice/,
    );
  });
});

describe('the cause of a dead Mokapi', () => {
  // As Go prints a fatal map race; the function and line are those a CI run's broker died in
  // (the arguments and paths are made up).
  const commitRace = [
    'fatal error: concurrent map read and map write',
    '',
    'goroutine 1234 [running]:',
    'mokapi/providers/asyncapi3/kafka/store.(*Store).processMetricsOffsetCommit(0xc000a1e000, ...)',
    '\t/build/providers/asyncapi3/kafka/store/offset_commit.go:84 +0x7c',
  ].join('\n');

  it('names the offset-commit race, and only that race, as a bug of the broker', () => {
    expect(isMokapiCommitRace(commitRace)).toBe(true);
    expect(mokapiDeathCause(commitRace)).toMatch(
      /^Mokapi 0\.52's own offset-commit race \(fatal error: concurrent map read and map write in processMetricsOffsetCommit/,
    );
    // The same race read after a produce (Mokapi's lag gauge).
    const afterProduce = commitRace.replace('processMetricsOffsetCommit', 'UpdateMetrics');
    expect(mokapiDeathCause(afterProduce)).toMatch(/race \(.* in UpdateMetrics:/);
    const otherMap = commitRace.replace('processMetricsOffsetCommit', 'fetch');
    expect(isMokapiCommitRace(otherMap)).toBe(false);
    expect(mokapiDeathCause(otherMap)).toBe('fatal error: concurrent map read and map write');
    expect(mokapiDeathCause('')).toBeUndefined();
  });
});

describe('NestJS Kafka transport over Mokapi', () => {
  beforeAll(async () => {
    const t0 = performance.now();
    broker = await startMokapiBroker({
      topics: [ECHO, EVENT, KEYED],
      replyTopics: [replyTopicOf(ECHO)],
    });
    const t1 = performance.now();
    timings['broker start (spawn until metadata served)'] = Math.round(t1 - t0);

    const startServer = async (): Promise<number> => {
      server = await NestFactory.createMicroservice(SpikeServerModule, {
        ...kafkaServerOptions({
          clientId: 'spike-service',
          groupId: 'spike-service',
          brokers: [broker!.brokers],
        }),
        logger: ['error', 'warn'],
      });
      await server.listen();
      return performance.now();
    };
    const startClient = async (): Promise<number> => {
      clientApp = await NestFactory.createApplicationContext(clientModule(broker!.brokers), {
        logger: ['error', 'warn'],
      });
      client = clientApp.get<ClientKafka>(CLIENT);
      client.subscribeToResponseOf(ECHO);
      await client.connect();
      return performance.now();
    };
    // Both groups join concurrently: each join costs one rebalance delay, so in parallel they cost one.
    const [serverReady, clientReady] = await Promise.all([startServer(), startClient()]);
    timings['server listening (group joined)'] = Math.round(serverReady - t1);
    timings['client connected (reply group joined)'] = Math.round(clientReady - t1);
    const first = await request<{ echoed: unknown }>({ warmup: true });
    const t2 = performance.now();
    expect(first.echoed).toEqual({ warmup: true });
    timings['first request-reply after client connected'] = Math.round(t2 - clientReady);
    timings['apps start until first reply'] = Math.round(t2 - t1);
    timings['broker start until first reply'] = Math.round(t2 - t0);
  });

  afterAll(async () => {
    await closeAll();
    console.log(
      `Kafka spike over Mokapi (${broker?.document.servers['broker']!.bindings.kafka['group.initial.rebalance.delay.ms']} ms rebalance delay)\n` +
        Object.entries(timings)
          .map(([name, value]) => `  ${name}: ${value}${typeof value === 'number' ? ' ms' : ''}`)
          .join('\n'),
    );
  });

  it('round-trips a JSON object through request-reply', async () => {
    const reply = await request<{ echoed: unknown; messageKey: string | null }>(PAYLOAD);
    expect(reply.echoed).toEqual(PAYLOAD);
    expect(reply.messageKey).toBeNull();
  });

  it('answers subsequent requests quickly, sequential and concurrent', async () => {
    const sequential: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const reply = await request<{ echoed: { i: number } }>({ i });
      sequential.push(Math.round(performance.now() - started));
      expect(reply.echoed.i).toBe(i);
    }
    timings['sequential request-reply'] = stats(sequential);

    const started = performance.now();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request<{ echoed: { i: number } }>({ i, concurrent: true }),
      ),
    );
    timings['50 concurrent request-replies, total'] = Math.round(performance.now() - started);
    expect(replies.map((reply) => reply.echoed.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('passes a key and headers with a request ({ key, value, headers } form); the handler sees the value', async () => {
    const reply = await request<{
      echoed: unknown;
      messageKey: string | null;
      correlation: unknown;
    }>({
      key: 'order-7',
      value: PAYLOAD,
      headers: { 'x-correlation-id': 'corr-1' },
    });
    expect(reply).toEqual({ echoed: PAYLOAD, messageKey: 'order-7', correlation: 'corr-1' });
  });

  it('returns an RpcException as an error to the client', async () => {
    await expect(request({ fail: true })).rejects.toEqual({ code: 409, message: 'spike conflict' });
  });

  it('delivers an emitted event to its @EventPattern handler', async () => {
    const started = performance.now();
    await lastValueFrom(client.emit(EVENT, PAYLOAD));
    const event = await inbox.next(EVENT);
    timings['emit until event handler ran'] = Math.round(performance.now() - started);
    expect(event.value).toEqual(PAYLOAD);
    expect(event.key).toBeNull();
  });

  it('delivers a keyed event ({ key, value } form): the handler sees the value, the key is on the message', async () => {
    await lastValueFrom(
      client.emit(KEYED, { key: 'order-42', value: PAYLOAD, headers: { 'x-event-id': 'ev-1' } }),
    );
    const event = await inbox.next(KEYED);
    expect(event.value).toEqual(PAYLOAD);
    expect(event.key).toBe('order-42');
    expect(event.headers['x-event-id']).toBe('ev-1');
  });

  it('runs Mokapi on one Go thread (GOMAXPROCS=1), where its offset-commit race has no window', () => {
    const environments = (groupMembers(broker!.pgid) ?? [])
      .filter((member) => member.cmdline.split('\0')[0]?.endsWith('/mokapi'))
      .map((member) => readFileSync(`/proc/${member.pid}/environ`, 'utf8').split('\0'));
    expect(environments).toHaveLength(1);
    expect(environments[0]).toContain('GOMAXPROCS=1');
  });

  it('closes the apps and stops the broker, leaving nothing running', async () => {
    const started = performance.now();
    await closeAll();
    timings['close apps and stop broker'] = Math.round(performance.now() - started);
    // Whether the broker's processes are gone (zombies awaiting reaping count as gone); not
    // whether its port accepts: once freed, another process on this machine may take it.
    expect(broker!.isRunning()).toBe(false);
  });
});
