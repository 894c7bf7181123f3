import { Counter, Gauge, LabelValues, Registry, collectDefaultMetrics } from 'prom-client';
import { ConsumerGroups, LagProbe } from './consumer-lag';
import { FastHistogram, HistogramSeries } from './fast-histogram';
import { CachedReadings } from './cached-readings';
import { outboxHealth } from './outbox-health';

type BacklogCounter = () => Promise<number>;

/** Seconds; covers a ~1 ms in-process answer up to a bus timeout (10 s by default). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type BusOutcome = 'ok' | 'failure' | 'timeout' | 'unavailable';
/** `unsubscribed`: webhook-dispatcher skipped an event no endpoint of its merchant wants. */
export type EventOutcome = 'handled' | 'duplicate' | 'dead-lettered' | 'unsubscribed';
/** What a service did with a command carrying an id (CommandLedger). */
export type CommandOutcome = 'carried_out' | 'repeated' | 'expired' | 'reused' | 'failed';

/**
 * The Prometheus metrics of one process (one registry: in the standalone app the gateway and every
 * service share it). Served at GET /metrics; see docs/operations.md for what each one means.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly consumerGroups = new ConsumerGroups();
  private readonly backlogs = new CachedReadings<number>('outbox backlog');
  private lagProbe?: LagProbe;

  readonly httpRequestDuration = new FastHistogram(
    'http_request_duration_seconds',
    'HTTP requests served, by method, route pattern and status class, and how long they took',
    ['method', 'route', 'status_class'] as const,
    LATENCY_BUCKETS,
    this.registry,
  );

  readonly busRequestDuration = new FastHistogram(
    'bus_request_duration_seconds',
    'Request-reply commands sent on the bus, by topic and outcome (ok, failure: the service answered an error, timeout, unavailable)',
    ['topic', 'outcome'] as const,
    LATENCY_BUCKETS,
    this.registry,
  );

  readonly eventsConsumed = new Counter({
    name: 'events_consumed_total',
    help: 'Domain events consumed, by consumer, topic and outcome (handled, duplicate: already handled, dead-lettered)',
    labelNames: ['consumer', 'topic', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly commandsHandled = new Counter({
    name: 'commands_handled_total',
    help: 'Commands with an id a service handled, by topic and outcome (carried_out; repeated: answered from its record; expired: past its deadline, not carried out; reused: the id came with another request; failed: refused or failed, nothing done)',
    labelNames: ['topic', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly batchMessages = new Counter({
    name: 'batch_consumer_messages_total',
    help: 'Messages consumed by batch consumers, by topic',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly batches = new Counter({
    name: 'batch_consumer_batches_total',
    help: 'Batches handled by batch consumers, by topic',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  readonly batchDeadLettered = new Counter({
    name: 'batch_consumer_dead_lettered_total',
    help: 'Messages a batch consumer parked in the dead-letter table (invalid), by topic',
    labelNames: ['topic'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // prom-client calls collect() with the gauge as `this`: these reach the Metrics object.
    const readBacklogs = () => this.readBacklogs();
    const readLag = async () => (await this.lagProbe?.read()) ?? [];
    new Gauge({
      name: 'outbox_backlog',
      help: 'Committed events not yet relayed to the bus, per service schema (read on scrape, cached 1 s)',
      labelNames: ['service'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        const values = await readBacklogs();
        for (const [service, value] of values) this.set({ service }, value);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'Seconds since the oldest event not yet relayed to the bus was written, per service schema (0 when none waits; read on scrape, cached 1 s). Growing: the relay is not draining',
      labelNames: ['service'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { service, oldestPendingSeconds } of await outboxHealth.ages())
          if (oldestPendingSeconds !== undefined) this.set({ service }, oldestPendingSeconds ?? 0);
      },
    });
    new Gauge({
      name: 'kafka_consumer_lag',
      help: "Messages this process's consumer groups have still to consume, per group, topic and partition (from the broker, read on scrape, cached 5 s; absent without Kafka)",
      labelNames: ['group', 'topic', 'partition'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const { group, topic, partition, lag } of await readLag())
          this.set({ group, topic, partition: String(partition) }, lag);
      },
    });
  }

  /** Counts a service's unrelayed outbox rows on scrape; returns the function that stops it. */
  trackOutboxBacklog(service: string, count: BacklogCounter): () => void {
    return this.backlogs.track(service, count);
  }

  /** Reads consumer lag from the broker on scrape (distributed mode). */
  trackConsumerLag(probe: LagProbe): void {
    this.lagProbe = probe;
  }

  untrackConsumerLag(probe: LagProbe): void {
    if (this.lagProbe === probe) this.lagProbe = undefined;
  }

  private readonly busSeries = new Map<string, Map<BusOutcome, HistogramSeries>>();

  /** On every bus request: two lookups by strings that already exist, no key built. */
  observeBusRequest(topic: string, outcome: BusOutcome, seconds: number): void {
    let byOutcome = this.busSeries.get(topic);
    if (!byOutcome) this.busSeries.set(topic, (byOutcome = new Map()));
    let series = byOutcome.get(outcome);
    if (!series) byOutcome.set(outcome, (series = this.busRequestDuration.series(topic, outcome)));
    series.observe(seconds);
  }

  countEvent(consumer: string, topic: string, outcome: EventOutcome): void {
    this.eventsConsumed.inc({ consumer, topic, outcome });
  }

  countCommand(topic: string, outcome: CommandOutcome): void {
    this.commandsHandled.inc({ topic, outcome });
  }

  countBatch(topic: string, messages: number, deadLettered: number): void {
    const labels: LabelValues<'topic'> = { topic };
    this.batches.inc(labels);
    this.batchMessages.inc(labels, messages);
    if (deadLettered > 0) this.batchDeadLettered.inc(labels, deadLettered);
  }

  /** The Prometheus text exposition of every metric. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private async readBacklogs(now = Date.now()): Promise<[string, number][]> {
    const values: [string, number][] = [];
    for (const [service, value] of await this.backlogs.readAll(now))
      if (value !== undefined) values.push([service, value]);
    return values;
  }
}

let processMetrics: Metrics | undefined;

/** This process's metrics (created on first use). */
export function metrics(): Metrics {
  processMetrics ??= new Metrics();
  return processMetrics;
}
