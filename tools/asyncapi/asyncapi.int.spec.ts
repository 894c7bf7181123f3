import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parseAllDocuments } from 'yaml';
import {
  ADAPTER_DEFINITIONS,
  ADAPTER_TOPICS,
  COMMAND_DEFINITIONS,
  COMMAND_TOPICS,
  EVENT_DEFINITIONS,
  EVENT_TOPICS,
  deadLetterTopicOf,
  replyTopicOf,
  validateContract,
} from '@consign/contracts';
import { findRepoRoot } from '../openapi/plugin-metadata';
import { ASYNCAPI_YAML, DEFAULT_TOPIC_SIZING, topicsOf } from './asyncapi-document';
import { checkedInSizing, generateAsyncApiFiles } from './generated-files';
import { parseSizing } from './generate-asyncapi';
import { JsonSchema } from './payload-schemas';
import { CREATE_TOPICS_SH, STRIMZI_TOPICS_YAML } from './provisioning';
import { expectUpToDate as upToDate } from '../expect-up-to-date';

const root = findRepoRoot(__dirname);

const expectUpToDate = (file: string, generated: string) =>
  upToDate(root, file, generated, 'npm run asyncapi');

type Doc = {
  channels: Record<string, JsonSchema & { bindings: { kafka: JsonSchema } }>;
  operations: Record<string, JsonSchema>;
  components: { messages: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
};

describe('AsyncAPI document', () => {
  let document: Doc;
  let files: Record<string, string>;

  beforeAll(() => {
    const generated = generateAsyncApiFiles(root, checkedInSizing(root));
    document = generated.document as unknown as Doc;
    files = generated.files;
  }, 120_000);

  it.each([ASYNCAPI_YAML, STRIMZI_TOPICS_YAML, CREATE_TOPICS_SH])('%s matches the code', (file) => {
    expectUpToDate(file, files[file]);
  });

  it('is a valid AsyncAPI 3.0 document', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const spec = require('@asyncapi/specs/schemas/3.0.0-without-$id.json') as object;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(spec);
    const valid = validate(document);
    expect(validate.errors?.slice(0, 5) ?? []).toEqual([]);
    expect(valid).toBe(true);
    const refs = JSON.stringify(document).match(/"\$ref":"#\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const path = ref
        .slice(10, -1)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
      let node: unknown = document;
      for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
      expect([ref, node !== undefined]).toEqual([ref, true]);
    }
  });

  it('declares every topic: requests with their replies, events, adapters and dead letters', () => {
    const expected = [
      ...COMMAND_TOPICS,
      ...COMMAND_TOPICS.map(replyTopicOf),
      ...EVENT_TOPICS,
      ...ADAPTER_TOPICS,
      ...[...EVENT_TOPICS, ...ADAPTER_TOPICS].map(deadLetterTopicOf),
    ];
    expect(Object.keys(document.channels).sort()).toEqual([...expected].sort());
    const kinds = topicsOf(document as unknown as JsonSchema).map((t) => [t.name, t.kind]);
    expect(kinds).toContainEqual(['order.get.v1', 'command']);
    expect(kinds).toContainEqual(['order.get.v1.reply', 'reply']);
    expect(kinds).toContainEqual(['carrier.checkpoint.v1.dlt', 'deadLetter']);
    expect(document.operations['receive.order.get.v1'].reply).toEqual({
      channel: { $ref: '#/channels/order.get.v1.reply' },
    });
  });

  it('carries the contract limits in the payload schemas', () => {
    const { schemas, messages } = document.components;
    expect(messages['catalog.product.create.v1'].payload).toEqual({
      $ref: '#/components/schemas/CreateProductCommand',
    });
    expect(schemas.CreateProductRequest.properties).toMatchObject({
      title: { type: 'string', maxLength: 256, minLength: 1 },
    });
    expect(schemas.CreateProductRequest.required).toContain('title');
    expect(schemas.StockReservationFailedEvent.required).toEqual(
      expect.arrayContaining(['order_id', 'reason', 'message']),
    );
    expect(schemas.ReservationFailure).toEqual({
      type: 'string',
      enum: ['unknown_sku', 'insufficient_stock', 'no_warehouse'],
    });
    // @IsOptional: may be absent or null; @IsInt @Min(1): a positive integer.
    expect(schemas.OrderCreatedEvent.required).not.toContain('warehouse_code');
    expect(schemas.OrderCreatedEvent.properties).toMatchObject({
      order_id: { type: 'integer', minimum: 1 },
      warehouse_code: { maxLength: 32 },
    });
    expect(schemas.WarehouseOrderCancelledEvent.required).toEqual(['order_id']);
  });

  it('accepts real messages and refuses ones a consumer would refuse', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validatorOf = (topic: string) =>
      ajv.compile({
        ...(document.components.messages[topic].payload as object),
        components: { schemas: document.components.schemas },
      });
    const created = validatorOf('order.created.v1');
    const event = {
      event_id: '0b7c3f1e-7a43-4f53-9d86-1f3f0c7b2a10',
      merchant_id: 1,
      aggregate_id: '7',
      occurred_at: '2026-05-01T08:00:00.000Z',
      payload: {
        order_id: 7,
        attempt: 1,
        warehouse_code: null,
        lines: [{ sku_number: 'A', quantity: 2 }],
      },
    };
    expect(created(event)).toBe(true);
    expect(created({ ...event, payload: { ...event.payload, lines: [] } })).toBe(false);
    expect(created({ ...event, payload: { ...event.payload, attempt: 1.5 } })).toBe(false);
    const reply = validatorOf('order.create.v1.reply');
    expect(reply({ ok: true, data: 7 })).toBe(true);
    expect(reply({ ok: false, error: { code: 'common.validation', message: 'no' } })).toBe(true);
    expect(reply(null)).toBe(true);
    expect(reply({ ok: true, data: 0 })).toBe(false);
  });

  it('gives an example of each message adapters publish, valid and accepted by its consumer', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const published = [
      ...ADAPTER_DEFINITIONS.map((definition) => ({ ...definition, enveloped: false })),
      ...EVENT_DEFINITIONS.filter(({ topic }) => topic.startsWith('warehouse.')).map(
        (definition) => ({ ...definition, enveloped: true }),
      ),
    ];
    expect(published.length).toBeGreaterThanOrEqual(6);
    for (const { topic, payload: cls, enveloped } of published) {
      const message = document.components.messages[topic];
      const examples = message.examples as { headers: object; payload: { payload?: object } }[];
      expect({ topic, examples: examples?.length }).toEqual({ topic, examples: 1 });
      const [{ headers, payload }] = examples;
      const schemas = { components: { schemas: document.components.schemas } };
      for (const [part, schema, value] of [
        ['payload', message.payload, payload],
        ['headers', message.headers, headers],
      ] as const) {
        const validate = ajv.compile({ ...(schema as object), ...schemas });
        expect({ topic, part, valid: validate(value), errors: validate.errors ?? null }).toEqual({
          topic,
          part,
          valid: true,
          errors: null,
        });
      }
      const consumed = validateContract(cls, enveloped ? payload.payload : payload);
      expect({ topic, consumed }).toMatchObject({ topic, consumed: { ok: true } });
    }
  });

  it('wraps events in the envelope and replies in the Reply shape, null included', () => {
    const { messages } = document.components;
    expect(messages['order.created.v1'].payload).toEqual({
      allOf: [
        { $ref: '#/components/schemas/WireEventEnvelope' },
        {
          type: 'object',
          properties: { payload: { $ref: '#/components/schemas/OrderCreatedEvent' } },
        },
      ],
    });
    expect(messages['order.created.v1'].bindings).toMatchObject({
      kafka: { key: { type: 'string' } },
    });
    expect(document.components.schemas.WireEventEnvelope.required).toEqual(
      expect.arrayContaining(['event_id', 'merchant_id', 'aggregate_id', 'payload']),
    );
    expect(messages['catalog.product.list.v1.reply'].payload).toEqual({
      oneOf: [
        {
          allOf: [
            { $ref: '#/components/schemas/WireReplySuccess' },
            {
              type: 'object',
              properties: {
                data: { type: 'array', items: { $ref: '#/components/schemas/ProductView' } },
              },
            },
          ],
        },
        { $ref: '#/components/schemas/WireReplyFailure' },
        { type: 'null' },
      ],
    });
    expect(messages['carrier.checkpoint.v1'].payload).toEqual({
      $ref: '#/components/schemas/CarrierCheckpointEvent',
    });
  });

  it('sizes and retains topics by kind; dead letters carry the x-dlt headers', () => {
    const sizing = checkedInSizing(root);
    const kafka = (topic: string) => document.channels[topic].bindings.kafka;
    expect(kafka('order.get.v1.reply')).toMatchObject({
      partitions: sizing.replyPartitions,
      topicConfiguration: { 'cleanup.policy': ['delete'], 'retention.ms': 600_000 },
    });
    expect(kafka('order.created.v1').partitions).toBe(sizing.eventPartitions);
    expect(kafka('carrier.checkpoint.v1').partitions).toBe(sizing.checkpointPartitions);
    const dlt = document.components.messages['order.created.v1.dlt'].headers as JsonSchema;
    expect(dlt.required).toEqual([
      'x-dlt-consumer',
      'x-dlt-error',
      'x-dlt-attempts',
      'x-dlt-failed-at',
    ]);
    expect(Object.keys(dlt.properties as object)).toContain('x-correlation-id');
  });

  it('documents the command id and deadline on the idempotent commands only', () => {
    const headersOf = (topic: string) =>
      Object.keys((document.components.messages[topic].headers as JsonSchema).properties as object);
    const idempotent = COMMAND_DEFINITIONS.filter((d) => d.idempotent).map((d) => d.topic);
    expect(idempotent).toContain('order.create.v1');
    for (const { topic, idempotent: once } of COMMAND_DEFINITIONS) {
      const names = headersOf(topic);
      expect([topic, names.includes('x-command-id'), names.includes('x-command-deadline')]).toEqual(
        [topic, once === true, once === true],
      );
    }
    expect(headersOf('order.get.v1')).not.toContain('x-command-id');
  });

  it('sizes reply topics with --reply-partitions, keeping the recorded sizing otherwise', () => {
    expect(parseSizing(['--reply-partitions=12'], DEFAULT_TOPIC_SIZING)).toEqual({
      ...DEFAULT_TOPIC_SIZING,
      replyPartitions: 12,
    });
    expect(() => parseSizing(['--reply-partitions=0'], DEFAULT_TOPIC_SIZING)).toThrow(
      /invalid argument/,
    );
    expect(() => parseSizing(['--replies=3'], DEFAULT_TOPIC_SIZING)).toThrow(/unknown/);
  });

  it('makes one Strimzi KafkaTopic per topic, in the consign cluster', () => {
    const objects = parseAllDocuments(files[STRIMZI_TOPICS_YAML]).map(
      (doc) => doc.toJS() as JsonSchema,
    );
    const topics = topicsOf(document as unknown as JsonSchema);
    expect(objects).toHaveLength(topics.length);
    const reply = objects.find(
      (o) => (o.spec as JsonSchema).topicName === 'order.reservation_requested.v1',
    );
    expect(reply).toEqual({
      apiVersion: 'kafka.strimzi.io/v1beta2',
      kind: 'KafkaTopic',
      metadata: {
        name: 'order-reservation-requested-v1',
        labels: { 'strimzi.io/cluster': 'consign', 'app.kubernetes.io/part-of': 'consign' },
        annotations: { 'consign.dev/topic-kind': 'event' },
      },
      spec: {
        topicName: 'order.reservation_requested.v1',
        partitions: DEFAULT_TOPIC_SIZING.eventPartitions,
        replicas: 1,
        config: {
          'cleanup.policy': 'delete',
          'retention.ms': '604800000',
          'min.insync.replicas': '1',
        },
      },
    });
    for (const o of objects) {
      expect((o.metadata as { name: string }).name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(o.metadata).not.toHaveProperty('namespace');
    }
  });

  it('create-topics.sh creates the missing topics with their partitions and configs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'create-topics-'));
    try {
      const script = join(dir, 'create-topics.sh');
      writeFileSync(script, files[CREATE_TOPICS_SH], { mode: 0o755 });
      // A stand-in for kafka-topics.sh: lists one existing topic and records every call.
      const fake = join(dir, 'kafka-topics.sh');
      const calls = join(dir, 'calls');
      writeFileSync(
        fake,
        `#!/bin/sh\necho "$*" >> "${calls}"\ncase "$*" in *--list*) echo order.get.v1 ;; esac\n`,
        { mode: 0o755 },
      );
      const out = execFileSync('sh', [script, 'kafka:9092'], {
        env: { ...process.env, KAFKA_TOPICS: fake },
        encoding: 'utf8',
      });
      const lines = readFileSync(calls, 'utf8').trim().split('\n');
      const topics = topicsOf(document as unknown as JsonSchema);
      expect(out).toContain(`${topics.length} topics present`);
      expect(lines[0]).toBe('--bootstrap-server kafka:9092 --list');
      expect(lines).toHaveLength(topics.length); // the listing, and every topic but order.get.v1
      expect(lines).toContain(
        '--bootstrap-server kafka:9092 --create --if-not-exists --topic order.get.v1.reply ' +
          `--partitions ${DEFAULT_TOPIC_SIZING.replyPartitions} --config cleanup.policy=delete --config retention.ms=600000`,
      );
      expect(() => execFileSync('sh', [script], { stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
