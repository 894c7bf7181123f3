import { Controller, INestApplicationContext, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ClientKafka, ClientsModule, MessagePattern, Payload } from '@nestjs/microservices';
import { Kafka, logLevel } from 'kafkajs';
import { lastValueFrom, timeout } from 'rxjs';
import { CommonErrorCode, Reply, replyTopicOf, success } from '@consign/contracts';
import {
  MOKAPI_MAX_VALUE_BYTES,
  kafkaClientOptions,
  kafkaJsConfig,
  kafkaServerOptions,
} from '@consign/bus';
import { MokapiBroker, startMokapiBroker } from './mokapi-broker';

/*
 * Why label documents once stopped every later reply in the distributed deployment: the Mokapi
 * 0.52 test broker takes a record whose value is over 64 KiB, then panics serving any fetch that
 * reaches it and never answers that fetch, so the consumer (a gateway's one reply consumer, which
 * reads every reply topic) is stuck on that offset for good. The bus therefore never hands a
 * broker a message over BUS_MAX_MESSAGE_BYTES, which the test deployments set to Mokapi's limit.
 */

const RAW = 'size.raw.v1';
const SIZED = 'size.reply.v1';
const CLIENT = Symbol('size-client');

@Controller()
class SizedReplyController {
  /** Answers a reply of the asked number of characters. */
  @MessagePattern(SIZED)
  reply(@Payload() data: { chars: number }): Reply<string> {
    return success('x'.repeat(data.chars));
  }
}

@Module({ controllers: [SizedReplyController] })
class SizedReplyModule {}

describe('message size on the Mokapi test broker', () => {
  let broker: MokapiBroker;
  let server: INestMicroservice | undefined;
  let clientApp: INestApplicationContext | undefined;

  beforeAll(async () => {
    broker = await startMokapiBroker({ topics: [SIZED], replyTopics: [replyTopicOf(SIZED)] });
  });

  afterAll(async () => {
    await clientApp?.close();
    await server?.close();
    await broker?.stop();
  });

  it('bounded by BUS_MAX_MESSAGE_BYTES, an oversized reply is answered with an error and later replies still arrive', async () => {
    const endpoint = { brokers: [broker.brokers], maxMessageBytes: MOKAPI_MAX_VALUE_BYTES };
    server = await NestFactory.createMicroservice(SizedReplyModule, {
      ...kafkaServerOptions({ ...endpoint, clientId: 'size-service', groupId: 'size-service' }),
      logger: false,
    });
    await server.listen();
    @Module({
      imports: [
        ClientsModule.register([
          {
            name: CLIENT,
            ...kafkaClientOptions({
              ...endpoint,
              clientId: 'size-gateway',
              groupId: 'size-gateway',
            }),
          },
        ]),
      ],
    })
    class SizedClientModule {}
    clientApp = await NestFactory.createApplicationContext(SizedClientModule, { logger: false });
    const client = clientApp.get<ClientKafka>(CLIENT);
    client.subscribeToResponseOf(SIZED);
    await client.connect();
    const ask = (chars: number) =>
      lastValueFrom(client.send<Reply<string>>(SIZED, { chars }).pipe(timeout(10_000)));

    const large = await ask(150_000);
    expect(large).toEqual({
      ok: false,
      error: { code: CommonErrorCode.Internal, message: expect.stringContaining('150021 bytes') },
    });
    // Just within the limit: `{"ok":true,"data":"…"}` is 21 bytes around the characters.
    const largest = await ask(MOKAPI_MAX_VALUE_BYTES - 21);
    expect(largest.ok && largest.data.length).toBe(MOKAPI_MAX_VALUE_BYTES - 21);
    await expect(ask(3)).resolves.toEqual({ ok: true, data: 'xxx' });
    // A request over the limit is refused before it reaches the broker.
    await expect(
      lastValueFrom(client.send(SIZED, { chars: 1, pad: 'x'.repeat(MOKAPI_MAX_VALUE_BYTES) })),
    ).rejects.toThrow(/over the bus's 65536-byte limit/);
  }, 60_000);

  it('delivers a 65,536-byte record value and never one byte more (the broker panics)', async () => {
    // A broker of its own: the stuck fetch would outlive the test on a shared one.
    const rawBroker = await startMokapiBroker({ topics: [RAW] });
    const config = kafkaJsConfig({
      clientId: 'size-raw',
      groupId: 'size-raw',
      brokers: [rawBroker.brokers],
    });
    const kafka = new Kafka({ ...config.client, logLevel: logLevel.NOTHING });
    const producer = kafka.producer(config.producer);
    const consumer = kafka.consumer(config.consumer);
    const seen: number[] = [];
    try {
      await producer.connect();
      await consumer.connect();
      await consumer.subscribe({ topic: RAW, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => void seen.push(message.value!.length),
      });
      const delivered = async (bytes: number, withinMs: number) => {
        await producer.send({ topic: RAW, messages: [{ value: Buffer.alloc(bytes, 'a') }] });
        const until = Date.now() + withinMs;
        while (!seen.includes(bytes) && Date.now() < until)
          await new Promise((resolve) => setTimeout(resolve, 25));
        return seen.includes(bytes);
      };
      expect(await delivered(MOKAPI_MAX_VALUE_BYTES, 10_000)).toBe(true);
      expect(await delivered(MOKAPI_MAX_VALUE_BYTES + 1, 3_000)).toBe(false);
      expect(rawBroker.logs()).toContain('kafka panic: offset out of range');
    } finally {
      // The consumer's last fetch is never answered: the broker goes first, then the clients.
      await rawBroker.stop();
      await Promise.allSettled([consumer.disconnect(), producer.disconnect()]);
    }
  }, 30_000);
});
