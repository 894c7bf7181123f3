import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { describeContract, flattenValidationErrors } from '@consign/contracts';

/**
 * Kafka's own default for the largest record batch a topic accepts (`message.max.bytes`,
 * 1,048,588 bytes), less room for the batch header, the key and the headers: the default bound on
 * one serialized message value (BUS_MAX_MESSAGE_BYTES).
 */
export const KAFKA_DEFAULT_MAX_VALUE_BYTES = 1_000_000;

/**
 * How long a Kafka consumer's fetch may wait at the broker for something to read, by default
 * (KAFKA_FETCH_MAX_WAIT_MS; Kafka's `fetch.max.wait.ms`, 500 in the Java client, 5,000 in kafkajs).
 */
export const KAFKA_DEFAULT_FETCH_MAX_WAIT_MS = 1000;

/** class-transformer: a string of digits as a number (settings come from the environment). */
export const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
/** class-transformer: a blank setting is an unset one. */
export const blankToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/**
 * The process configuration, read from the environment once at boot. Each variable is
 * validated; a bad value stops start-up with a message naming the variable and the rule.
 */
export class AppConfig {
  /** HTTP port of the process: the API (gateway, standalone), health and metrics (every app). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Host the process listens on. */
  @IsString()
  HOST = '0.0.0.0';

  /** Directory of the embedded database (used when DATABASE_URL is unset). */
  @IsString()
  @MinLength(1)
  DATA_DIR = './data';

  /** PostgreSQL connection URL; when unset the embedded database under DATA_DIR is used. */
  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, {
    message: 'DATABASE_URL must be a postgres:// or postgresql:// URL',
  })
  DATABASE_URL?: string;

  /**
   * Connections each service schema of the process may hold on PostgreSQL: a pool per schema
   * (the standalone has eight, a service process one or two), so a deployment holds at most the
   * sum over its processes of schemas × this (docs/operations.md, "PostgreSQL"). Unused on the
   * embedded database, which has one connection.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE = 10;

  /** Comma-separated Kafka bootstrap brokers (host:port); when unset the in-process bus is used. */
  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9._-]+:\d{1,5}(,[A-Za-z0-9._-]+:\d{1,5})*$/, {
    message: 'KAFKA_BROKERS must be a comma-separated list of host:port',
  })
  KAFKA_BROKERS?: string;

  /** How long the gateway waits for a service's reply before answering 504. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(120000)
  BUS_TIMEOUT_MS = 10000;

  /**
   * How long the broker may hold a consumer's fetch while there is nothing to read, in ms.
   * Kafka answers a held fetch as soon as a message arrives, so this sets only how often an idle
   * consumer asks again, not how soon it sees a message. Mokapi, the test broker, holds an empty
   * fetch for (wait - 200) ms and looks for messages every min(wait / 5, 100) ms: from 500 up, a
   * message waits there at most 100 ms (docs/operations.md, "Kafka consumers' fetch wait"). At
   * most half the consumers' 10 s session timeout: kafkajs sends heartbeats between fetches.
   */
  @Transform(toInt)
  @IsInt()
  @Min(250)
  @Max(5000)
  KAFKA_FETCH_MAX_WAIT_MS = KAFKA_DEFAULT_FETCH_MAX_WAIT_MS;

  /**
   * Kafka consumers commit their offsets at most once per this many ms, one partition per
   * request (bus/kafka/commit-pacer.ts); 0 (default) keeps kafkajs' own pace, a commit after
   * every fetched batch. A commit only bounds what a crash or rebalance replays, and every
   * consumer deduplicates a replay. The Mokapi test deployments set it: that broker crashes on
   * busy commits (docs/operations.md, "Offset commits").
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60_000)
  BUS_COMMIT_INTERVAL_MS = 0;

  /**
   * The largest serialized message (a request, a reply, an event) a process puts on Kafka, in
   * bytes. Default: Kafka's own default topic limit (`message.max.bytes`) less room for headers.
   * A reply over it is answered with an internal error, a request or event over it is not sent:
   * never a record the broker refuses or, on the Mokapi test broker (65,536 bytes), one that hangs
   * its consumers. Raise it only with the topics' `max.message.bytes` (docs/operations.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(4096)
  @Max(100 * 1024 * 1024)
  BUS_MAX_MESSAGE_BYTES = KAFKA_DEFAULT_MAX_VALUE_BYTES;

  // --- Readiness beyond reachability (see docs/health-and-shutdown.md) ---

  /**
   * Readiness fails while an outbox's oldest unpublished event is older than this (its relay is
   * not draining); 0 turns the check off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  READINESS_MAX_OUTBOX_AGE_MS = 60_000;

  /**
   * Readiness fails while this many requests in a row to one command topic timed out (the
   * latest within READINESS_BUS_TIMEOUT_WINDOW_MS); 0 turns the check off.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(10_000)
  READINESS_BUS_TIMEOUTS = 5;

  /** How long a run of bus timeouts keeps readiness failing after the latest of them. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  READINESS_BUS_TIMEOUT_WINDOW_MS = 30_000;

  /**
   * Readiness fails while a Kafka consumer of the process has been rebalancing this long without
   * rejoining its group (e.g. the gateway's reply consumer after a broker freeze); 0: never.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  READINESS_MAX_REBALANCE_MS = 30_000;

  /** Log level: error, warn, log, debug or verbose. */
  @Matches(/^(error|warn|log|debug|verbose)$/, {
    message: 'LOG_LEVEL must be one of error, warn, log, debug, verbose',
  })
  LOG_LEVEL = 'log';

  // --- Graceful shutdown (see docs/operations.md "Health and shutdown") ---
  // SIGTERM: readiness answers 503 at once, the process keeps serving for SHUTDOWN_DELAY_MS (so
  // that load balancers stop routing to it), then stops accepting connections and waits at most
  // SHUTDOWN_DRAIN_TIMEOUT_MS for in-flight requests, then stops consumers (committing offsets),
  // flushes the outbox relays and closes producers and the database, bounded by
  // SHUTDOWN_CLOSE_TIMEOUT_MS. An orchestrator's grace period must exceed the sum of the three.

  /** How long a process keeps serving after SIGTERM with readiness failing (SIGINT skips it). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(120_000)
  SHUTDOWN_DELAY_MS = 5000;

  /** The longest wait for in-flight HTTP requests once the listener is closed. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300_000)
  SHUTDOWN_DRAIN_TIMEOUT_MS = 10_000;

  /** The longest wait for consumers, relays, producers and database to close; then exit 1. */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(300_000)
  SHUTDOWN_CLOSE_TIMEOUT_MS = 10_000;

  // --- Observability (logs, metrics, tracing) ---

  /**
   * Log line format: `json` (one JSON object per line) or `text` (Nest's console lines). Unset:
   * json for the gateway and service processes, text for the standalone app.
   */
  @Transform(blankToUndefined)
  @IsOptional()
  @IsIn(['json', 'text'], { message: 'LOG_FORMAT must be json or text' })
  LOG_FORMAT?: 'json' | 'text';

  /**
   * OTLP/HTTP collector base URL (the OpenTelemetry SDK's own variable, e.g.
   * http://otel-collector:4318). Tracing is off unless it (or OTEL_TRACES_EXPORTER) is set; the
   * preload module reads it before the app starts, this only rejects a malformed value.
   */
  @Transform(blankToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, {
    message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL',
  })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  // --- end of observability ---

  get kafkaBrokers(): string[] {
    return this.KAFKA_BROKERS ? this.KAFKA_BROKERS.split(',') : [];
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return loadConfigOf(AppConfig, env);
}

/**
 * Reads and validates a library's own configuration class from the environment (the variables
 * named by its properties), with the same rules and errors as loadConfig.
 */
export function loadConfigOf<T extends object>(
  cls: new () => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const source: Record<string, string> = {};
  for (const key of settingsOf(cls)) {
    const value = env[key];
    if (value !== undefined) source[key] = value;
  }
  const config = plainToInstance(cls, source, { exposeDefaultValues: true });
  // The values stay on the errors: without them every broken rule reads "is required"
  // (flattenValidationErrors). The messages name the setting and the rule, never the value.
  const errors = validateSync(config, { validationError: { target: false } });
  if (errors.length) throw new ConfigError(flattenValidationErrors(errors));
  return config;
}

/**
 * A settings class's variables: its properties with a default, and its decorated ones (an optional
 * setting without a default is not an own property of an instance).
 */
function settingsOf(cls: new () => object): Set<string> {
  const decorated = describeContract(cls).properties.map((property) => property.name);
  return new Set([...Object.keys(new cls()), ...decorated]);
}
