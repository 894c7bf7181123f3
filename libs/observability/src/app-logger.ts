import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { AppConfig } from '@consign/config';
import { BatchedStdout, batchedStdout } from './batched-stdout';
import { currentCorrelationId } from './correlation';
import { activeSpanIds } from './trace-context';

export type LogFormat = 'json' | 'text';

const LEVELS_BY_SEVERITY: readonly LogLevel[] = [
  'fatal',
  'error',
  'warn',
  'log',
  'debug',
  'verbose',
];

/** The levels printed when LOG_LEVEL is `level`: that one and every more severe one. */
export function logLevelsUpTo(level: string): LogLevel[] {
  const index = LEVELS_BY_SEVERITY.indexOf(level as LogLevel);
  return LEVELS_BY_SEVERITY.slice(0, index < 0 ? 4 : index + 1);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Far below Nest's truncation (1,000,000 characters): a flat entry this long is written whole. */
const FLAT_ENTRY_MAX_CHARS = 100_000;

/** Levels whose lines may wait for the end of the event loop's turn (BatchedStdout). */
const BATCHED_LEVELS: ReadonlySet<LogLevel> = new Set<LogLevel>(['log', 'debug', 'verbose']);

/**
 * Whether text lines are coloured: on a terminal, unless NO_COLOR is set (no-color.org); a
 * FORCE_COLOR other than `0` or `false` colours them anywhere. (Nest's default colours them
 * unless NO_COLOR, so that `npm start > file` wrote escape codes around every key it printed.)
 */
export function textColors(
  env: NodeJS.ProcessEnv = process.env,
  stdout: { isTTY?: boolean } = process.stdout,
): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return stdout.isTTY === true;
}

/**
 * Nest's logger for every Consign process. `json`: one JSON object per line,
 * `{"time","level","app","context","msg","correlation_id","trace_id","span_id",...fields,"stack"}`
 * (time in ISO 8601 UTC; `correlation_id` when the line is written inside a request or a
 * consumed message; `trace_id` and `span_id` when it is written inside an OpenTelemetry span; a
 * plain object logged as the message contributes its `msg` and its other keys as fields).
 * `text`: Nest's usual console lines, with `correlation_id=<id>` (and `trace_id=… span_id=…`)
 * after the context.
 *
 * With `batched` (every app's logger: createAppLogger), `log`, `debug` and `verbose` lines to
 * stdout are written once per turn of the event loop (BatchedStdout); a warning, an error or a
 * fatal line first writes what waits, then itself at once, so lines keep their order and nothing
 * that reports a failure waits.
 */
export class AppLogger extends ConsoleLogger {
  private readonly batch: BatchedStdout | undefined;

  constructor(
    private readonly app: string,
    readonly format: LogFormat,
    logLevels: LogLevel[],
    options: { batched?: boolean } = {},
  ) {
    super({
      json: format === 'json',
      logLevels,
      prefix: app,
      ...(format === 'json' ? { colors: false, compact: true } : { colors: textColors() }),
    });
    this.batch = options.batched ? batchedStdout() : undefined;
  }

  private output(text: string, level: LogLevel, stream: 'stdout' | 'stderr' = 'stdout'): void {
    if (!this.batch) return void process[stream].write(text);
    if (stream === 'stderr') {
      this.batch.flush();
      return void process.stderr.write(text);
    }
    this.batch.write(text);
    if (!BATCHED_LEVELS.has(level)) this.batch.flush();
  }

  /** Nest's text lines, written through `output` (Nest's own writes each line at once). */
  protected override printMessages(
    messages: unknown[],
    context = '',
    logLevel: LogLevel = 'log',
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    if (this.format === 'json')
      return super.printMessages(messages, context, logLevel, writeStreamType, errorStack);
    for (const message of messages) {
      const line = this.formatMessage(
        logLevel,
        message,
        this.formatPid(process.pid),
        logLevel.toUpperCase().padStart(7, ' '),
        this.formatContext(context),
        this.updateAndGetTimestampDiff(),
      );
      this.output(line, logLevel, writeStreamType);
    }
  }

  protected override printStackTrace(stack: string): void {
    this.batch?.flush();
    super.printStackTrace(stack);
  }

  protected override printAsJson(
    message: unknown,
    options: {
      context: string;
      logLevel: LogLevel;
      writeStreamType?: 'stdout' | 'stderr';
      errorStack?: unknown;
    },
  ): void {
    const line = this.stringifyJsonLogObject(this.logEntry(message, options));
    this.output(`${line}\n`, options.logLevel, options.writeStreamType);
  }

  private logEntry(
    message: unknown,
    options: { context: string; logLevel: LogLevel; errorStack?: unknown },
  ): Record<string, unknown> {
    const entry: Record<string, unknown> = {
      time: new Date().toISOString(),
      level: options.logLevel,
      app: this.app,
    };
    if (options.context) entry.context = options.context;
    const correlationId = currentCorrelationId();
    const span = activeSpanIds();
    const scope = () => {
      if (correlationId) entry.correlation_id = correlationId;
      if (span) {
        entry.trace_id = span.traceId;
        entry.span_id = span.spanId;
      }
    };
    if (isPlainObject(message)) {
      const { msg, message: text, ...fields } = message;
      entry.msg = msg ?? text ?? '';
      scope();
      Object.assign(entry, fields);
    } else if (message instanceof Error) {
      entry.msg = message.message;
      scope();
      entry.stack = message.stack;
    } else {
      entry.msg = message;
      scope();
    }
    if (options.errorStack) entry.stack = options.errorStack;
    return entry;
  }

  /**
   * A flat entry (strings, numbers, booleans: an access-log line, most lines) as plain
   * JSON.stringify writes it: Nest's serializer calls a replacer for every key (to inspect a Map,
   * a Set, an Error, a bigint, and to truncate past 1,000,000 characters), which leaves such an
   * entry as it is, at several times the cost. Anything else goes through Nest's.
   */
  protected override stringifyJsonLogObject(entry: Record<string, unknown>): string {
    let length = 0;
    for (const key in entry) {
      const value = entry[key];
      const type = typeof value;
      if (type === 'string') length += key.length + (value as string).length;
      else if (type === 'number' || type === 'boolean' || value == null) length += key.length;
      else return super.stringifyJsonLogObject(entry);
    }
    return length < FLAT_ENTRY_MAX_CHARS
      ? JSON.stringify(entry)
      : super.stringifyJsonLogObject(entry);
  }

  protected override formatContext(context: string): string {
    const correlationId = currentCorrelationId();
    const span = activeSpanIds();
    let formatted = super.formatContext(context);
    if (correlationId) formatted += `correlation_id=${correlationId} `;
    if (span) formatted += `trace_id=${span.traceId} span_id=${span.spanId} `;
    return formatted;
  }

  /**
   * Text lines stay one line each: a plain object (`{ msg, …fields }`) prints as its message
   * followed by `field=value` pairs, rather than Nest's indented JSON dump.
   */
  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    if (this.format === 'text' && isPlainObject(message)) {
      const { msg, message: text, ...fields } = message;
      const pairs = Object.entries(fields)
        .filter(([, value]) => value !== undefined && value !== null)
        .map(
          ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
        );
      return super.stringifyMessage([String(msg ?? text ?? ''), ...pairs].join(' '), logLevel);
    }
    return super.stringifyMessage(message, logLevel);
  }
}

/** The levels of this process's logger (createAppLogger); Nest's default until one is made. */
let processLogLevels: readonly LogLevel[] = logLevelsUpTo('log');

/**
 * Whether lines of `level` are printed in this process: guards a hot-path debug line that would
 * otherwise build its message for nothing. (Nest's static Logger.isLevelEnabled does not know
 * the levels of a logger instance given to NestFactory.)
 */
export function isLogLevelOn(level: LogLevel): boolean {
  return processLogLevels.includes(level);
}

/**
 * The logger of a process: LOG_FORMAT when set, otherwise the app's default (json for the
 * distributed processes, whose output a log pipeline reads; text for the standalone app, whose
 * console a person reads).
 */
export function createAppLogger(
  app: string,
  config: Pick<AppConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>,
  defaultFormat: LogFormat,
): AppLogger {
  processLogLevels = logLevelsUpTo(config.LOG_LEVEL);
  return new AppLogger(app, config.LOG_FORMAT ?? defaultFormat, [...processLogLevels], {
    batched: true,
  });
}
