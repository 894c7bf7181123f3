import { Controller, INestApplicationContext, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientKafka, MessagePattern } from '@nestjs/microservices';
import { Kafka, logLevel } from 'kafkajs';
import { RatingTopic, replyTopicOf } from '@consign/contracts';
import {
  BUS_CLIENT,
  CommandBus,
  busClientConnections,
  kafkaConsumerHealth,
  kafkaServerOptions,
} from '@consign/bus';
import { PlatformModule } from '@consign/platform';
import { loadConfig } from '@consign/config';
import { MokapiBroker, startMokapiBroker } from './mokapi-broker';

/*
 * The gateway's reply consumer, as the gateway builds it (PlatformModule's bus client, the
 * CommandBus), over the Kafka-protocol test broker, against a service that answers.
 *
 * Issue 13: a gateway whose reply consumer hit "offset out of range" answered 504 to everything
 * for minutes while it said it was ready. On Mokapi an out-of-range offset reaches the consumer
 * as the broker refusing to commit an offset beyond the end of the log (OFFSET_OUT_OF_RANGE, to
 * kafkajs a non-retriable error: the consumer crashes and kafkajs does not restart it). Mokapi
 * cannot be made to hold a committed offset beyond the end (it refuses the commit, and it has no
 * OffsetCommit for admin clients nor topic deletion), and a fetch beyond the end returns nothing
 * rather than OFFSET_OUT_OF_RANGE; so this moves the live consumer's position beyond the end
 * (kafkajs' seek, which commits it): the broker answers OFFSET_OUT_OF_RANGE, as it would to a
 * position left over from a log the broker has lost.
 */

const TOPIC = RatingTopic.ListServices;
const REPLY_TOPIC = replyTopicOf(TOPIC);
const MERCHANT = { merchant_id: 1 };

@Controller()
class ProbeServiceController {
  @MessagePattern(TOPIC)
  list() {
    return { ok: true, data: [] };
  }
}

@Module({ controllers: [ProbeServiceController] })
class ProbeServiceModule {}

let broker: MokapiBroker;
let service: INestMicroservice;
const contexts: INestApplicationContext[] = [];

async function startClient(appName: string): Promise<{
  bus: CommandBus;
  client: ClientKafka;
  connected: Promise<void>;
}> {
  const config = loadConfig({
    KAFKA_BROKERS: broker.brokers,
    // Never opened: the bus client is all this test uses.
    DATABASE_URL: 'postgres://127.0.0.1:1/unused',
    LOG_LEVEL: 'warn',
  });
  const context = await NestFactory.createApplicationContext(
    PlatformModule.forRoot({ config, appName, requestsReplies: true, requests: [TOPIC] }),
    { logger: ['error', 'warn'] },
  );
  contexts.push(context);
  const client = context.get<ClientKafka>(BUS_CLIENT);
  return {
    bus: context.get(CommandBus),
    client,
    connected: busClientConnections.get(client)!.connected,
  };
}

const ask = (bus: CommandBus) =>
  bus.request(TOPIC, MERCHANT, { key: '1', timeoutMs: 2_000 }).then((reply) => reply.ok);

async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

beforeAll(async () => {
  broker = await startMokapiBroker({
    topics: [TOPIC],
    replyTopics: [{ name: REPLY_TOPIC, partitions: 2 }],
  });
  service = await NestFactory.createMicroservice(ProbeServiceModule, {
    ...kafkaServerOptions({
      clientId: 'probe-service',
      groupId: 'probe-service',
      brokers: [broker.brokers],
    }),
    logger: ['error', 'warn'],
  });
  await service.listen();
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await service?.close();
  await broker?.stop();
});

describe('the reply consumer of a bus client (over the test broker)', () => {
  it('starts at the end of its reply topics: a new group does not read their history', async () => {
    // Replies to requests of processes long gone, retained on the reply topic.
    const kafka = new Kafka({ brokers: [broker.brokers], logLevel: logLevel.NOTHING });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: REPLY_TOPIC,
      messages: Array.from({ length: 50 }, (_, i) => ({
        partition: i % 2,
        value: JSON.stringify({ ok: true, data: [] }),
        headers: { kafka_correlationId: `gone-${i}` },
      })),
    });
    await producer.disconnect();

    const { bus, client, connected } = await startClient('reply-history');
    let read = 0;
    client.consumer.on(client.consumer.events.START_BATCH_PROCESS, (event) => {
      read += event.payload.batchSize;
    });
    await connected;
    expect(await ask(bus)).toBe(true);
    // Its own reply only, not the 50 before it.
    expect(read).toBe(1);
  }, 60_000);

  it('commits where its reply partition starts before any reply: back in its group, it resumes there', async () => {
    const { connected } = await startClient('reply-start');
    await connected;
    // No request sent, no reply handled: kafkajs alone commits nothing, and a consumer put out
    // of its group would come back at the end, past what it missed. (Mokapi answers OffsetFetch
    // to group members only: its log says what it committed.)
    const committedStart = new RegExp(
      `group reply-start-client committed offset \\d+ topic=${REPLY_TOPIC.replace(/\./g, '\\.')} partition=0`,
    );
    expect(await until(async () => committedStart.test(broker.logs()), 10_000)).toBe(true);
  }, 60_000);

  it('recovers from an offset out of range: not ready meanwhile, answering again within seconds', async () => {
    const { bus, client, connected } = await startClient('reply-range');
    await connected;
    expect(await ask(bus)).toBe(true);

    const consumer = client.consumer;
    const crashes: { error: string; restart: boolean; notConsuming: string[] }[] = [];
    consumer.on(consumer.events.CRASH, (event) => {
      crashes.push({
        error: event.payload.error.message,
        restart: event.payload.restart,
        // Readiness at that moment (the registry's own listener ran first).
        notConsuming: kafkaConsumerHealth.notConsuming(0).map((c) => c.name),
      });
    });
    const broken = Date.now();
    for (const partition of [0, 1])
      consumer.seek({ topic: REPLY_TOPIC, partition, offset: '1000000' });

    expect(await until(async () => crashes.length > 0, 10_000)).toBe(true);
    expect(crashes[0]).toEqual({
      error: expect.stringMatching(/not within the range of offsets/),
      // kafkajs alone would leave the consumer stopped for good.
      restart: false,
      notConsuming: ['reply-range-client'],
    });
    // The supervisor restarts it: answers again, and ready again.
    expect(await until(() => ask(bus), 30_000)).toBe(true);
    process.stdout.write(
      `reply consumer out of range: answering again after ${Date.now() - broken} ms\n`,
    );
    expect(kafkaConsumerHealth.notConsuming(0).map((c) => c.name)).not.toContain(
      'reply-range-client',
    );
  }, 60_000);
});
