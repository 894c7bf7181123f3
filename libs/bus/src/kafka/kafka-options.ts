import { KafkaOptions, Transport } from '@nestjs/microservices';
import { BoundedReplySerializer, BoundedRequestSerializer } from './bounded-serializer';
import {
  ConsumerConfig,
  KafkaConfig,
  Partitioners,
  ProducerConfig,
  logLevel as KafkaLogLevel,
} from 'kafkajs';
import { KAFKA_DEFAULT_FETCH_MAX_WAIT_MS } from '@consign/config';
import { fixKafkajsRequestQueue } from './kafkajs-request-queue';

// Every process that reaches Kafka loads these options (the bus, readiness, tools), so kafkajs'
// request queues are fixed before the first connection: see kafkajs-request-queue.ts.
fixKafkajsRequestQueue();

/**
 * Kafka options for `@nestjs/microservices` (kafkajs 2.2), tuned to behave the same on real Kafka
 * (KRaft, docker-compose / Kubernetes) and on the Mokapi mock broker the tests run
 * (`@consign/testing` startMokapiBroker). Every setting that differs from the kafkajs / Nest
 * default says why. Settings deliberately left at their defaults (and why):
 *
 * - No compression (`send.compression` unset): Mokapi 0.52 acknowledges a gzip batch, drops it
 *   (consumers never see it) and never answers another request on that connection (the next
 *   send times out after 30 s).
 * - No transactions, no `idempotent` producer: Mokapi has no transactions; the outbox (commit,
 *   then publish, consumers dedupe through the inbox) gives the guarantee instead. Mokapi 0.52
 *   does accept InitProducerId, so idempotence could be switched on later without breaking tests.
 * - `acks` -1 (all in-sync replicas), kafkajs' default: what production wants; Mokapi has one.
 * - `rebalanceTimeout` 60 s: how long a rebalance waits for busy members to rejoin.
 *
 * Nest appends `-server` / `-client` (`postfixId`) to both clientId and groupId, so a process's
 * server and client consumers are never in the same group. Each Nest object builds fresh option
 * objects here because Nest mutates `consumer` and `run` in place.
 */
export interface KafkaEndpointOptions {
  clientId: string;
  /** Consumer group prefix (Nest appends `-server` / `-client`). */
  groupId: string;
  brokers: string[];
  /** kafkajs log level routed through Nest's logger; default WARN. */
  logLevel?: KafkaLogLevel;
  /**
   * The largest serialized message value this process hands the broker (BUS_MAX_MESSAGE_BYTES):
   * a larger reply is answered with an internal error, a larger request or event is not sent
   * (see bounded-serializer.ts). Unset: no bound (tools that only consume).
   */
  maxMessageBytes?: number;
  /**
   * BUS_COMMIT_INTERVAL_MS: above 0, kafkajs' auto-commit is off (`run.autoCommit` false) and
   * the consumer's owner commits through a CommitPacer (commit-pacer.ts). 0 or unset: kafkajs
   * commits after every batch.
   */
  commitIntervalMs?: number;
  /**
   * KAFKA_FETCH_MAX_WAIT_MS: how long the broker may hold the consumer's fetch while there is
   * nothing to read (`maxWaitTimeInMs`); unset: KAFKA_DEFAULT_FETCH_MAX_WAIT_MS.
   */
  fetchMaxWaitMs?: number;
}

export interface KafkaClientEndpointOptions extends KafkaEndpointOptions {
  /**
   * The client only emits events and never waits for replies: no consumer, no consumer group, no
   * group join at start-up. A process whose client never calls `send` should set it.
   */
  producerOnly?: boolean;
}

function kafkaClientConfig(options: KafkaEndpointOptions) {
  return {
    clientId: options.clientId,
    brokers: options.brokers,
    // kafkajs logs at INFO by default (every join, every connect): through Nest's logger that is
    // several lines per consumer per start; warnings and errors are what an operator needs.
    logLevel: options.logLevel ?? KafkaLogLevel.WARN,
    // Default: first retry after 300 ms, 5 retries (~10 s in all). A faster first retry shortens
    // start-up when a process races the broker (tests start both together); 10 retries, each
    // wait capped at 5 s, ride out a ~25 s broker restart before the consumer or producer gives up.
    retry: { initialRetryTime: 100, maxRetryTime: 5_000, retries: 10 },
  };
}

function kafkaConsumerConfig(options: KafkaEndpointOptions) {
  return {
    groupId: options.groupId,
    // How often an idle consumer fetches again, not how soon it sees a message (on the test
    // broker: within 100 ms from 500 up); see AppConfig.KAFKA_FETCH_MAX_WAIT_MS.
    maxWaitTimeInMs: options.fetchMaxWaitMs ?? KAFKA_DEFAULT_FETCH_MAX_WAIT_MS,
    // Default 30 s / 3 s. A member that dies without leaving (crash, SIGKILL; and Mokapi ignores
    // LeaveGroup altogether) holds its partitions until its session times out: 10 s bounds that
    // stall. Heartbeats (kafkajs sends them between fetches) every 1 s let live members notice a
    // rebalance quickly: on Mokapi, within group.initial.rebalance.delay.ms when that is >= 1.5 s.
    sessionTimeout: 10_000,
    heartbeatInterval: 1_000,
    // Topics are provisioned from the AsyncAPI document, never auto-created: a misspelt topic
    // must fail loudly (UNKNOWN_TOPIC_OR_PARTITION), not create a stray topic on real Kafka.
    // (Mokapi never auto-creates; this keeps real Kafka as strict as the tests.)
    allowAutoTopicCreation: false,
  };
}

/** kafkajs run options: auto-commit off when commits are paced (see commitIntervalMs). */
function kafkaRunConfig(options: KafkaEndpointOptions): { run?: { autoCommit: false } } {
  return (options.commitIntervalMs ?? 0) > 0 ? { run: { autoCommit: false } } : {};
}

function kafkaProducerConfig() {
  return {
    // Same reason as the consumer: only declared topics exist.
    allowAutoTopicCreation: false,
    // The kafkajs 2.x default (murmur2, as the Java client) chosen explicitly: it silences the
    // "switched default partitioner" warning and keeps key -> partition identical to other
    // clients, so one aggregate's events (keyed by aggregate id) stay in one ordered partition.
    createPartitioner: Partitioners.DefaultPartitioner,
  };
}

/**
 * A fresh consumer group starts at the latest offset by default: a message produced between the
 * group's join and its first offset lookup, or before the group first existed (a service starting
 * after the gateway sent), would be silently skipped. Reading from the beginning when the group has
 * no committed offset loses nothing; once offsets are committed (every restart of an existing
 * group) it changes nothing. The price: a group with a new id replays what the topic retains, so
 * handlers must be idempotent (events: the inbox) and group ids must not change casually; a
 * replayed request's reply goes to a correlation id nobody waits for. Reply consumers are the
 * exception (REPLIES_FROM_LATEST below).
 */
const SUBSCRIBE_FROM_BEGINNING = { fromBeginning: true };

/**
 * The microservice (server) side of a service: `@MessagePattern` / `@EventPattern` handlers.
 * Replicas of one service share the group. On Mokapi 0.52 a group must not have more members than
 * the topics have partitions: kafkajs' default assigner leaves the idle member out of the
 * assignment and Mokapi crashes on that (the broker process exits).
 */
export function kafkaServerOptions(options: KafkaEndpointOptions): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: kafkaClientConfig(options),
      consumer: kafkaConsumerConfig(options),
      producer: kafkaProducerConfig(),
      subscribe: { ...SUBSCRIBE_FROM_BEGINNING },
      ...kafkaRunConfig(options),
      ...(options.maxMessageBytes !== undefined
        ? { serializer: new BoundedReplySerializer(options.maxMessageBytes) }
        : {}),
    },
  };
}

/**
 * Where a reply consumer starts when its group has no usable committed offset (a new group, the
 * broker lost its offsets, or an offset out of range): at the end of the reply topics. A reply
 * is only of use to a request of this process still waiting for it, so reading the topics'
 * retained history (kafkajs resets an out-of-range offset to this default too) would only delay
 * the replies that matter. A committed offset (every rejoin of a running group) still resumes
 * where it was, so no reply to a waiting request is skipped by a rebalance. The one reply that
 * could be skipped, one produced between a new group's join and its first fetch, cannot be:
 * the client counts as connected only after that first fetch (see platform.module). And a reply
 * partition the group never committed is given a committed offset (its end) as soon as it is
 * assigned (PacedKafkaClient), so a consumer put out of its group and back resumes there rather
 * than at a later end, past the replies produced meanwhile.
 */
const REPLIES_FROM_LATEST = { fromBeginning: false };

/**
 * The client side (`ClientKafka`, e.g. the gateway's request-reply client). Call
 * `subscribeToResponseOf(pattern)` for every pattern it will `send`, then `connect()`: connect
 * resolves after the reply consumer has joined its group, so the reply partition is known.
 *
 * The groupId must be unique per process: in a shared reply group each member needs a reply
 * partition of its own (partitions >= members, or `send` fails with no reply partition).
 */
export function kafkaClientOptions(options: KafkaClientEndpointOptions): KafkaOptions {
  return {
    transport: Transport.KAFKA,
    options: {
      client: kafkaClientConfig(options),
      consumer: kafkaConsumerConfig(options),
      producer: kafkaProducerConfig(),
      subscribe: { ...REPLIES_FROM_LATEST },
      ...kafkaRunConfig(options),
      producerOnlyMode: options.producerOnly ?? false,
      ...(options.maxMessageBytes !== undefined
        ? { serializer: new BoundedRequestSerializer(options.maxMessageBytes) }
        : {}),
    },
  };
}

/**
 * The same settings for plain kafkajs: a topic consumed in batches (`eachBatch`, which Nest's
 * `@EventPattern` does not offer: Nest hands a handler one message at a time and waits for it
 * before the next, so a handler that resolves only after its write committed would write one row
 * per transaction), or a tool that only produces.
 */
export function kafkaJsConfig(options: KafkaEndpointOptions): {
  client: KafkaConfig;
  consumer: ConsumerConfig;
  producer: ProducerConfig;
  fromBeginning: boolean;
} {
  return {
    client: kafkaClientConfig(options),
    consumer: kafkaConsumerConfig(options),
    producer: kafkaProducerConfig(),
    fromBeginning: SUBSCRIBE_FROM_BEGINNING.fromBeginning,
  };
}
