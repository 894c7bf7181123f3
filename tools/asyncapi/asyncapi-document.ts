import {
  ADAPTER_DEFINITIONS,
  COMMAND_DEFINITIONS,
  COMMAND_DEADLINE_HEADER,
  COMMAND_ID_HEADER,
  CORRELATION_HEADER,
  CarrierTopic,
  ClassOf,
  DLT_HEADERS,
  EVENT_DEFINITIONS,
  ReplyDescriptor,
  deadLetterTopicOf,
  replyTopicOf,
} from '@consign/contracts';
import { stringify } from 'yaml';
import {
  EXAMPLE_TIME,
  ExampleMaker,
  JsonSchema as ExampleSchema,
} from '../openapi/openapi-examples';
import { JsonSchema, PayloadSchemas } from './payload-schemas';

export const ASYNCAPI_YAML = 'docs/asyncapi.yaml';

/**
 * The generator's parameters: partition counts per kind of topic. Recorded in the document
 * (`info.x-consign-generator`), so the staleness test regenerates with the values it was made with.
 */
export interface TopicSizing {
  /**
   * Partitions of every reply topic (`<command>.reply`). Each gateway replica's reply consumer
   * (Nest's ClientKafka, one consumer group per replica) needs a partition of its own, so this
   * must be at least the largest number of gateway replicas (the HPA's maxReplicas).
   */
  replyPartitions: number;
  /** Request topics: at least the largest number of replicas of any one service. */
  commandPartitions: number;
  /** Domain event topics (and warehouse adapter events): at least a consumer's replica count. */
  eventPartitions: number;
  /** `carrier.checkpoint.v1`: label-tracking consumes it in batches, several partitions at once. */
  checkpointPartitions: number;
  /** Dead-letter topics: low volume, read by operators. */
  deadLetterPartitions: number;
}

export const DEFAULT_TOPIC_SIZING: TopicSizing = {
  replyPartitions: 6,
  commandPartitions: 6,
  eventPartitions: 6,
  checkpointPartitions: 12,
  deadLetterPartitions: 1,
};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** retention.ms per kind of topic (cleanup.policy is delete everywhere). */
export const RETENTION_MS = {
  /** A request is worth nothing after the bus timeout; kept an hour for diagnosis. */
  command: HOUR,
  /** Replies are read within seconds by the waiting gateway: short retention. */
  reply: 10 * 60_000,
  event: 7 * DAY,
  adapter: 7 * DAY,
  deadLetter: 28 * DAY,
} as const;

export type TopicKind = keyof typeof RETENTION_MS;

/** What provisioning needs of a topic, read back from a document (see topicsOf). */
export interface TopicDefinition {
  name: string;
  kind: TopicKind;
  partitions: number;
  configs: Record<string, string>;
}

const KAFKA_BINDING_VERSION = '0.5.0';
function header(description: string): JsonSchema {
  return { type: 'string', description };
}

const CORRELATION = header(
  'Correlation id of the HTTP request (or process) that caused the message; logged as correlation_id.',
);

function headers(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
  };
}

/**
 * Carried by the commands whose definition is idempotent (they create or change something, and
 * their service's CommandLedger carries each id out once); the others do not read them.
 */
const COMMAND_HEADERS: Record<string, JsonSchema> = {
  [COMMAND_ID_HEADER]: {
    type: 'string',
    format: 'uuid',
    description:
      "The command's id: the same on every delivery and on every retry of the HTTP request with the same Idempotency-Key. The owning service records it with the effect in one transaction and answers a repeat with the recorded reply.",
  },
  [COMMAND_DEADLINE_HEADER]: {
    type: 'string',
    format: 'date-time',
    description:
      'When the sender stops waiting (ISO 8601 UTC). The service neither starts nor commits the command after it, and records it as expired.',
  },
};

const NEST_REQUEST_HEADERS = {
  kafka_correlationId: header("Nest's request-reply id, echoed on the reply."),
  kafka_replyTopic: header('Where the reply goes: `<topic>.reply`.'),
  kafka_replyPartition: header(
    "The partition of the reply topic the requesting gateway's reply consumer owns.",
  ),
};

const DLT_HEADER_SCHEMAS: Record<string, JsonSchema> = {
  [DLT_HEADERS.consumer]: header('The consumer (service) that gave up on the message.'),
  [DLT_HEADERS.error]: header(
    'Why: the validation message or the last error (at most 4000 characters).',
  ),
  [DLT_HEADERS.attempts]: header('How many times it was tried (decimal).'),
  [DLT_HEADERS.failedAt]: {
    type: 'string',
    format: 'date-time',
    description: 'When it was given up on (ISO 8601 UTC).',
  },
};

interface ChannelSpec {
  name: string;
  kind: TopicKind;
  partitions: number;
  description: string;
  message: JsonSchema;
  operation: { action: 'send' | 'receive'; description: string; reply?: string };
}

const EXAMPLE_CORRELATION_ID = '0b7c3f1e-7a43-4f53-9d86-1f3f0c7b2a10';

/**
 * An example of each message adapters publish (a warehouse's events in their envelope, a carrier's
 * checkpoints), made from its payload schema as the API document's examples are
 * (openapi-examples.ts): what an adapter author can send as it is.
 */
function addAdapterExamples(channels: readonly ChannelSpec[], maker: ExampleMaker): void {
  for (const { kind, name: topic, message } of channels) {
    const published = kind === 'adapter' || (kind === 'event' && topic.startsWith('warehouse.'));
    if (!published) continue;
    const data = maker.component(String(message.name)) as Record<string, unknown>;
    const aggregate = data.order_id ?? data.inbound_id ?? data.label_id;
    message.examples = [
      {
        name: `${String(message.name)}Example`,
        summary: `A \`${topic}\` message as an adapter publishes it.`,
        headers: { [CORRELATION_HEADER]: EXAMPLE_CORRELATION_ID },
        payload:
          kind === 'adapter'
            ? data
            : {
                event_id: 'c5d0a2b4-3e1f-4c6a-8b7d-9e0f1a2b3c4d',
                merchant_id: 1,
                aggregate_id: String(aggregate),
                occurred_at: EXAMPLE_TIME,
                payload: data,
              },
      },
    ];
  }
}

function kafkaChannelBinding(name: string, kind: TopicKind, partitions: number): JsonSchema {
  return {
    kafka: {
      topic: name,
      partitions,
      topicConfiguration: { 'cleanup.policy': ['delete'], 'retention.ms': RETENTION_MS[kind] },
      bindingVersion: KAFKA_BINDING_VERSION,
    },
  };
}

function keyBinding(description: string): JsonSchema {
  return { kafka: { key: { type: 'string', description }, bindingVersion: KAFKA_BINDING_VERSION } };
}

/** `[Class]`: a reply that is a list of it. */
function isListDescriptor(descriptor: ReplyDescriptor): descriptor is readonly [ClassOf<object>] {
  return Array.isArray(descriptor);
}

function classNameOf(value: unknown): string {
  if (typeof value !== 'function') throw new Error(`not a class: ${String(value)}`);
  return value.name;
}

/**
 * The AsyncAPI 3.0 document of the Consign bus, from the contracts' topic definitions: every request
 * topic with its reply topic, every domain event and adapter topic, and a dead-letter topic for
 * each consumed one, each with its payload schema, key, headers, partitions and retention.
 */
export function buildAsyncApiDocument(options: {
  root: string;
  sizing?: Partial<TopicSizing>;
}): JsonSchema {
  const sizing: TopicSizing = { ...DEFAULT_TOPIC_SIZING, ...options.sizing };
  for (const [name, value] of Object.entries(sizing)) {
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${name} must be a whole number ≥ 1`);
  }
  const payloads = new PayloadSchemas(options.root);
  const success = payloads.ref('WireReplySuccess');
  const failure = payloads.ref('WireReplyFailure');
  const envelope = payloads.ref('WireEventEnvelope');
  const channels: ChannelSpec[] = [];

  const byTopic = (a: { topic: string }, b: { topic: string }) => a.topic.localeCompare(b.topic);
  for (const { topic, request: requestClass, reply: replyDescriptor, idempotent } of [
    ...COMMAND_DEFINITIONS,
  ].sort(byTopic)) {
    const request = classNameOf(requestClass);
    const data: JsonSchema =
      replyDescriptor === Number
        ? { type: 'integer', minimum: 1, description: 'The id of what was created.' }
        : isListDescriptor(replyDescriptor)
          ? { type: 'array', items: payloads.ref(classNameOf(replyDescriptor[0])) }
          : payloads.ref(classNameOf(replyDescriptor));
    const reply = replyTopicOf(topic);
    channels.push({
      name: topic,
      kind: 'command',
      partitions: sizing.commandPartitions,
      description: `Requests \`${request}\`; answered on \`${reply}\`.`,
      message: {
        name: request,
        payload: payloads.ref(request),
        headers: headers(
          {
            [CORRELATION_HEADER]: CORRELATION,
            ...(idempotent ? COMMAND_HEADERS : {}),
            ...NEST_REQUEST_HEADERS,
          },
          [CORRELATION_HEADER, 'kafka_correlationId', 'kafka_replyTopic', 'kafka_replyPartition'],
        ),
        bindings: keyBinding('The merchant id or the id of the aggregate the request is about.'),
      },
      operation: {
        action: 'receive',
        description: `The owning service answers \`${topic}\` requests (one consumer group per service).`,
        reply,
      },
    });
    channels.push({
      name: reply,
      kind: 'reply',
      partitions: sizing.replyPartitions,
      description:
        `Replies to \`${topic}\`: a Reply (errors travel as data), or a null value when Nest ` +
        'disposes of a request without an answer. Partitions: one per gateway replica at least.',
      message: {
        name: `${request}Reply`,
        payload: {
          oneOf: [
            { allOf: [success, { type: 'object', properties: { data } }] },
            failure,
            { type: 'null' },
          ],
        },
        headers: headers(
          {
            kafka_correlationId: header('The id of the request answered.'),
            'kafka_nest-is-disposed': header('Present when the handler completed.'),
            'kafka_nest-err': header('A transport-level error (handlers answer errors as data).'),
          },
          ['kafka_correlationId'],
        ),
      },
      operation: {
        action: 'send',
        description: `The owning service sends replies to \`${topic}\` requests.`,
      },
    });
  }

  const eventMessage = (topic: string, payloadClass: string): JsonSchema => ({
    name: payloadClass,
    payload: {
      allOf: [envelope, { type: 'object', properties: { payload: payloads.ref(payloadClass) } }],
    },
    headers: headers({ [CORRELATION_HEADER]: CORRELATION }),
    bindings: keyBinding(
      `The aggregate id (the envelope's aggregate_id): one aggregate's events stay in order on one partition of \`${topic}\`.`,
    ),
  });
  const consumed: { topic: string; message: JsonSchema }[] = [];
  for (const { topic, payload: cls } of [...EVENT_DEFINITIONS].sort(byTopic)) {
    const message = eventMessage(topic, classNameOf(cls));
    const adapter = topic.startsWith('warehouse.');
    channels.push({
      name: topic,
      kind: 'event',
      partitions: sizing.eventPartitions,
      description: adapter
        ? `Warehouse adapter event \`${classNameOf(cls)}\` in an EventEnvelope.`
        : `Domain event \`${classNameOf(cls)}\` in an EventEnvelope, relayed from its service's outbox.`,
      message,
      operation: {
        action: 'send',
        description: adapter
          ? 'Warehouse adapters publish it.'
          : 'The owning service relays it from its transactional outbox, keyed by aggregate id.',
      },
    });
    consumed.push({ topic, message });
  }
  for (const { topic, payload: cls } of ADAPTER_DEFINITIONS) {
    const name = classNameOf(cls);
    const message: JsonSchema = {
      name,
      payload: payloads.ref(name),
      headers: headers({ [CORRELATION_HEADER]: CORRELATION }),
      bindings: keyBinding(
        topic === CarrierTopic.Checkpoint
          ? 'The parcel (label id, else tracking number): one parcel’s events stay in order.'
          : 'The adapter’s ordering key.',
      ),
    };
    channels.push({
      name: topic,
      kind: 'adapter',
      partitions: sizing.checkpointPartitions,
      description: `Raw \`${name}\` messages from carrier adapters (no EventEnvelope); label-tracking consumes them in batches.`,
      message,
      operation: {
        action: 'receive',
        description: 'label-tracking-service consumes it in batches.',
      },
    });
    consumed.push({ topic, message });
  }
  for (const { topic, message } of consumed) {
    const original = message.headers as { properties: Record<string, JsonSchema> };
    channels.push({
      name: deadLetterTopicOf(topic),
      kind: 'deadLetter',
      partitions: sizing.deadLetterPartitions,
      description:
        `Messages of \`${topic}\` a consumer gave up on (invalid, refused, or failing after its ` +
        'retries), copied unchanged with their key and headers plus the x-dlt-* headers.',
      message: {
        name: `${String(message.name)}DeadLetter`,
        payload: {
          description:
            `The original value, unchanged: normally a \`${topic}\` message, but possibly the very ` +
            'thing that failed validation, so nothing is promised about its shape.',
          'x-consign-original-payload': message.payload,
        },
        headers: headers(
          { ...original.properties, ...DLT_HEADER_SCHEMAS },
          Object.values(DLT_HEADERS),
        ),
        bindings: keyBinding('The original message key.'),
      },
      operation: {
        action: 'send',
        description:
          'Consumers publish (in distributed mode, relayed from their outbox) what they gave up on; ' +
          'operators read and replay it (`npm run admin -- dlt replay <topic>`).',
      },
    });
  }

  const schemas = payloads.schemas();
  addAdapterExamples(channels, new ExampleMaker(schemas as Record<string, ExampleSchema>));
  const document: JsonSchema = {
    asyncapi: '3.0.0',
    info: {
      title: 'Consign bus',
      version: '1.0.0',
      description:
        'Every Kafka topic of Consign: request topics (answered on `<topic>.reply`), domain and ' +
        'adapter events, and dead-letter topics (`<topic>.dlt`). Generated from the contracts ' +
        'library by `npm run asyncapi`; do not edit. Reply topics have at least one partition ' +
        'per gateway replica (`--reply-partitions`). Replication factor and min.insync.replicas ' +
        'are per environment: 1 and 1 in the Kustomize base, 3 and 2 in the prod overlay.',
      'x-consign-generator': { ...sizing },
    },
    defaultContentType: 'application/json',
    servers: {
      production: {
        host: 'consign-kafka-bootstrap:9092',
        protocol: 'kafka',
        description: 'The Strimzi cluster `consign` (KAFKA_BROKERS).',
      },
    },
    channels: Object.fromEntries(
      channels.map((c) => [
        c.name,
        {
          address: c.name,
          description: c.description,
          messages: { [String(c.message.name)]: { $ref: `#/components/messages/${c.name}` } },
          bindings: kafkaChannelBinding(c.name, c.kind, c.partitions),
          'x-consign-kind': c.kind,
        },
      ]),
    ),
    operations: Object.fromEntries(
      channels.map((c) => [
        `${c.operation.action}.${c.name}`,
        {
          action: c.operation.action,
          description: c.operation.description,
          channel: { $ref: `#/channels/${c.name}` },
          messages: [{ $ref: `#/channels/${c.name}/messages/${String(c.message.name)}` }],
          ...(c.operation.reply
            ? { reply: { channel: { $ref: `#/channels/${c.operation.reply}` } } }
            : {}),
        },
      ]),
    ),
    components: {
      messages: Object.fromEntries(
        channels.map((c) => [c.name, { contentType: 'application/json', ...c.message }]),
      ),
      schemas,
    },
  };
  return document;
}

/** The text of docs/asyncapi.yaml. */
export function serializeAsyncApiDocument(document: JsonSchema): string {
  return (
    '# Generated by `npm run asyncapi` from libs/contracts (tools/asyncapi). Do not edit.\n' +
    stringify(document, { lineWidth: 0, aliasDuplicateObjects: false })
  );
}

/** The topics of a document, as provisioning needs them. */
export function topicsOf(document: JsonSchema): TopicDefinition[] {
  const channels = document.channels as Record<
    string,
    {
      address: string;
      'x-consign-kind': TopicKind;
      bindings: {
        kafka: { partitions: number; topicConfiguration: Record<string, number | string[]> };
      };
    }
  >;
  return Object.values(channels).map((channel) => {
    const kafka = channel.bindings.kafka;
    const configs: Record<string, string> = {};
    for (const [key, value] of Object.entries(kafka.topicConfiguration)) {
      configs[key] = Array.isArray(value) ? value.join(',') : String(value);
    }
    return {
      name: channel.address,
      kind: channel['x-consign-kind'],
      partitions: kafka.partitions,
      configs,
    };
  });
}
