/**
 * The app processes the harness (startApp) has running in a jest worker, so that the test
 * environment of the integration and e2e tiers (jest/process-test-environment.ts) can print,
 * under a failed test, what they logged as warnings and errors while it ran. A request that
 * answered 503 or 504 then comes with the process's own reason for it (the gateway's
 * `request on <topic> failed: …`, kafkajs' rebalance or connection errors), in the CI log of
 * the run that failed, instead of only in CONSIGN_APP_LOG_DIR files nobody kept.
 *
 * The registry hangs off the test's global object under a registered symbol: the test's modules
 * and the environment load this file in two module registries, but share that global.
 */

/** What the report needs of an app process. */
export interface LoggingApp {
  name: string;
  pid: number | undefined;
  /** Everything it printed so far (stdout and stderr, interleaved). */
  output(): string;
}

const REGISTRY = Symbol.for('consign.testing.running-apps');

type WithRegistry = { [REGISTRY]?: Set<LoggingApp> };

/** The apps running in the test whose global object `scope` is (this worker's test file). */
export function runningApps(scope: object = globalThis): Set<LoggingApp> {
  const holder = scope as WithRegistry;
  return (holder[REGISTRY] ??= new Set());
}

/** Levels that say something went wrong (observability's app-logger, JSON or text). */
const PROBLEM_LEVELS = new Set(['warn', 'error', 'fatal']);

/** Lines of an error's stack shown at most (a text ERROR line is followed by its stack). */
const STACK_LINES = 6;

interface JsonLine {
  time?: unknown;
  level?: unknown;
  context?: unknown;
  msg?: unknown;
  correlation_id?: unknown;
  stack?: unknown;
}

/** A JSON line (LOG_FORMAT=json): the problem as a person reads it, else undefined. */
function jsonProblem(line: string, since: number): string | undefined {
  let entry: JsonLine;
  try {
    entry = JSON.parse(line) as JsonLine;
  } catch {
    return undefined;
  }
  if (typeof entry.level !== 'string' || !PROBLEM_LEVELS.has(entry.level)) return undefined;
  const time = typeof entry.time === 'string' ? Date.parse(entry.time) : NaN;
  if (!(time >= since)) return undefined;
  const context = typeof entry.context === 'string' && entry.context ? ` [${entry.context}]` : '';
  const correlation =
    typeof entry.correlation_id === 'string' ? ` (correlation ${entry.correlation_id})` : '';
  const stack =
    typeof entry.stack === 'string'
      ? `\n      ${entry.stack.split('\n').slice(0, STACK_LINES).join('\n      ')}`
      : '';
  return `  ${String(entry.time)} ${entry.level}${context} ${String(entry.msg ?? '')}${correlation}${stack}`;
}

/**
 * A text line (Nest's format, the default outside production):
 * `[consign] 15721  - 11/28/2026, 4:13:48 AM    WARN [RateLimit] Redis unreachable, …`, its time
 * local and to the second.
 */
const TEXT_LINE =
  /^\[[^\]]+\] \d+\s+-\s+(\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2}(?: [AP]M)?)\s+(WARN|ERROR|FATAL) (?:\[([^\]]*)\] )?(.*)$/;

function textProblem(line: string, since: number): string | undefined {
  const match = TEXT_LINE.exec(line);
  if (!match) return undefined;
  const [, stamp, level, context, message] = match;
  // To the second: a line of the second the test began in counts.
  if (!(new Date(stamp).getTime() >= Math.floor(since / 1000) * 1000)) return undefined;
  return `  ${stamp} ${level.toLowerCase()}${context ? ` [${context}]` : ''} ${message}`;
}

/** The problems in one app's output, in order. */
function problemsIn(output: string, since: number): string[] {
  const lines = output.split('\n');
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('{')) {
      const problem = jsonProblem(line, since);
      if (problem !== undefined) problems.push(problem);
      continue;
    }
    const problem = textProblem(line, since);
    if (problem === undefined) continue;
    const stack: string[] = [];
    while (
      stack.length < STACK_LINES &&
      i + 1 < lines.length &&
      lines[i + 1] !== '' &&
      !lines[i + 1].startsWith('[') &&
      !lines[i + 1].startsWith('{')
    )
      stack.push(`      ${lines[++i].trim()}`);
    problems.push([problem, ...stack].join('\n'));
  }
  return problems;
}

/**
 * The warnings and errors each app logged at or after `since` (epoch ms), the last `perApp` of
 * each; empty when there were none.
 */
export function problemsLogged(apps: Iterable<LoggingApp>, since: number, perApp = 30): string {
  const sections: string[] = [];
  for (const app of apps) {
    const lines = problemsIn(app.output(), since);
    if (lines.length === 0) continue;
    const shown = lines.slice(-perApp);
    const left = lines.length - shown.length;
    sections.push(
      [
        `${app.name} (pid ${app.pid ?? '?'}):${left > 0 ? ` the last ${shown.length} of ${lines.length}` : ''}`,
        ...shown,
      ].join('\n'),
    );
  }
  return sections.join('\n');
}
