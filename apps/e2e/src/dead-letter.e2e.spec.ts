import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Consumer, Kafka, Producer, logLevel } from 'kafkajs';
import {
  CarrierTopic,
  DLT_HEADERS,
  InboundEvent,
  WarehouseEvent,
  deadLetterTopicOf,
} from '@consign/contracts';
import { kafkaJsConfig } from '@consign/bus';
import {
  BOOTSTRAP_MERCHANT_ID,
  Deployment,
  REPO_ROOT,
  aProduct,
  aVariant,
  anEventEnvelope,
  anInbound,
  eventually,
  startDistributed,
} from '@consign/testing';

interface Seen {
  topic: string;
  key: string | null;
  value: unknown;
  headers: Record<string, string>;
}

const run = promisify(execFile);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Dead-letter topics over Kafka, every app its own process: a poison message is parked on
 * `<topic>.dlt` with its key, its headers and the x-dlt-* headers, and the consumer goes on with
 * the messages behind it (same key, so the same partition). Also: events are relayed from the
 * outboxes keyed by their aggregate id.
 */
describe('dead-letter topics (distributed)', () => {
  let deployment: Deployment;
  let producer: Producer;
  let consumer: Consumer;
  const seen: Seen[] = [];

  beforeAll(async () => {
    deployment = await startDistributed();
    const settings = kafkaJsConfig({
      clientId: 'e2e-dlt',
      groupId: `e2e-dlt-${randomUUID()}`,
      brokers: [deployment.busEnv!.KAFKA_BROKERS],
    });
    const kafka = new Kafka({ ...settings.client, logLevel: logLevel.ERROR });
    producer = kafka.producer(settings.producer);
    await producer.connect();
    consumer = kafka.consumer(settings.consumer);
    await consumer.connect();
    await consumer.subscribe({
      topics: [
        deadLetterTopicOf(WarehouseEvent.InboundReceived),
        deadLetterTopicOf(CarrierTopic.Checkpoint),
        InboundEvent.Received,
      ],
      fromBeginning: true,
    });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) {
          if (value !== undefined) headers[name] = value.toString();
        }
        const text = message.value?.toString() ?? 'null';
        seen.push({
          topic,
          key: message.key?.toString() ?? null,
          value: JSON.parse(text),
          headers,
        });
      },
    });
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await deployment?.stop();
  });

  const ok = async <T>(response: Promise<{ status: number; body: { data: T | null } }>) => {
    const { status, body } = await response;
    expect({ status, body }).toMatchObject({ status: 200 });
    return body.data as T;
  };
  const envelope = (aggregateId: number, payload: object) =>
    anEventEnvelope(BOOTSTRAP_MERCHANT_ID, String(aggregateId), payload);
  const arrived = (topic: string, match: (s: Seen) => boolean = () => true) =>
    eventually(
      async () => seen.filter((s) => s.topic === topic && match(s)),
      (found) => found.length > 0,
      { timeoutMs: 30_000 },
    );

  it('parks a poison warehouse event on its DLT with key and headers, and handles the next one', async () => {
    const api = deployment.client;
    const variant = aVariant() as { sku: string };
    await ok<number>(api.post('/2025-07/cloud/product', aProduct({ variants: [variant] })));
    const inboundId = await ok<number>(
      api.post('/2025-07/cloud/inbound', anInbound([{ sku_number: variant.sku, quantity: 5 }])),
    );
    // Not the aggregate id: the dead letter must keep the key the message came with.
    const key = `inbound-${inboundId}`;
    const poison = envelope(inboundId, { inbound_id: inboundId, items: [] });
    const good = envelope(inboundId, {
      inbound_id: inboundId,
      items: [{ sku_number: variant.sku, quantity: 5 }],
      complete: true,
    });
    await producer.send({
      topic: WarehouseEvent.InboundReceived,
      messages: [
        { key, value: JSON.stringify(poison), headers: { 'x-correlation-id': 'poison-1' } },
        { key, value: JSON.stringify(good), headers: { 'x-correlation-id': 'good-1' } },
      ],
    });

    const [letter] = await arrived(deadLetterTopicOf(WarehouseEvent.InboundReceived));
    expect(letter).toEqual({
      topic: 'warehouse.inbound_received.v1.dlt',
      key,
      value: poison,
      headers: expect.objectContaining({
        'x-correlation-id': 'poison-1',
        [DLT_HEADERS.consumer]: expect.stringMatching(/inbound/),
        [DLT_HEADERS.error]: expect.stringContaining('items should not be empty'),
        [DLT_HEADERS.attempts]: '1',
        [DLT_HEADERS.failedAt]: expect.stringMatching(ISO_UTC),
      }),
    });
    // The event behind it, on the same partition, was handled all the same.
    const received = await eventually(
      () =>
        ok<{ status: string; items: { actual_quantity: number }[] }>(
          api.get(`/2025-07/cloud/inbound/${inboundId}`),
        ),
      (inbound) => inbound.items[0].actual_quantity === 5,
      { timeoutMs: 30_000 },
    );
    expect(received.items[0].actual_quantity).toBe(5);
    expect(seen.filter((s) => s.topic === letter.topic)).toHaveLength(1);

    // The operator replays the DLT (`npm run admin -- dlt replay <topic>`): the poison goes back
    // to its topic with its key and headers, fails again and returns to the DLT.
    const replay = () =>
      run(
        process.execPath,
        [join(REPO_ROOT, 'dist/apps/admin/src/main.js'), 'dlt', 'replay', letter.topic],
        { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...deployment.busEnv } },
      );
    expect((await replay()).stdout).toBe(
      'topic=warehouse.inbound_received.v1\nreplayed=1\npending=0\n',
    );
    const letters = await eventually(
      async () => seen.filter((s) => s.topic === letter.topic),
      (found) => found.length === 2,
      { timeoutMs: 30_000 },
    );
    expect(letters[1]).toMatchObject({ key, value: poison });
    expect(letters[1].headers).toMatchObject({
      'x-correlation-id': 'poison-1',
      [DLT_HEADERS.attempts]: '1',
    });
    expect((await replay()).stdout).toContain('replayed=1\n');
    // A second replay takes only the returned copy: what was replayed before stays acknowledged.
    await eventually(
      async () => seen.filter((s) => s.topic === letter.topic).length,
      (n) => n === 3,
      { timeoutMs: 30_000 },
    );

    // inbound-service relayed inbound.received.v1 from its outbox, keyed by the aggregate id.
    const [relayed] = await arrived(
      InboundEvent.Received,
      (s) => (s.value as { payload?: { inbound_id?: number } }).payload?.inbound_id === inboundId,
    );
    expect(relayed.key).toBe((relayed.value as { aggregate_id: string }).aggregate_id);
  });

  it('parks an invalid carrier event (batch consumer) on carrier.checkpoint.v1.dlt', async () => {
    const parcel = `parcel-${randomUUID()}`;
    await producer.send({
      topic: CarrierTopic.Checkpoint,
      messages: [
        {
          key: parcel,
          value: JSON.stringify({ tracking_number: parcel }),
          headers: { 'x-correlation-id': 'carrier-poison' },
        },
      ],
    });
    const [letter] = await arrived(
      deadLetterTopicOf(CarrierTopic.Checkpoint),
      (s) => s.key === parcel,
    );
    expect(letter.value).toEqual({ tracking_number: parcel });
    expect(letter.headers).toMatchObject({
      'x-correlation-id': 'carrier-poison',
      [DLT_HEADERS.consumer]: 'label-tracking',
      [DLT_HEADERS.attempts]: '1',
    });
    expect(letter.headers[DLT_HEADERS.error]).toContain('event_code');
  });
});
