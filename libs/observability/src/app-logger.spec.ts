import { ConsoleLogger } from '@nestjs/common';
import { AppLogger, createAppLogger, logLevelsUpTo, textColors } from './app-logger';
import { batchedStdout } from './batched-stdout';
import { runWithCorrelationId } from './correlation';
import { captureStdout } from '@consign/testing';

function capture(run: () => void): string[] {
  const out = captureStdout();
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    out.writes.push(String(chunk));
    return true;
  });
  try {
    run();
    // What an app's (batched) logger writes by the end of the event loop's turn.
    batchedStdout().flush();
  } finally {
    out.restore();
    err.mockRestore();
  }
  return out.writes;
}

describe('AppLogger', () => {
  const json = new AppLogger('order-service', 'json', logLevelsUpTo('log'));

  it('writes one JSON object per line: ISO time, level, app, context, msg', () => {
    const [line, ...rest] = capture(() => json.log('order-service is ready', 'order-service'));
    expect(rest).toEqual([]);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    const entry = JSON.parse(line);
    expect(entry).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: 'log',
      app: 'order-service',
      context: 'order-service',
      msg: 'order-service is ready',
    });
  });

  it('adds the correlation id inside a request or message, and an object’s fields', () => {
    const [line] = capture(() =>
      runWithCorrelationId('abc-123', () =>
        json.warn({ msg: 'slow reply', topic: 'rating.freight.calculate.v1', ms: 812 }, 'Bus'),
      ),
    );
    expect(JSON.parse(line)).toMatchObject({
      level: 'warn',
      context: 'Bus',
      msg: 'slow reply',
      correlation_id: 'abc-123',
      topic: 'rating.freight.calculate.v1',
      ms: 812,
    });
  });

  it('keeps an error’s stack in the line, on stderr', () => {
    const [line, ...rest] = capture(() =>
      json.error('handler failed', 'Error: boom\n    at x', 'Handler'),
    );
    expect(rest).toEqual([]);
    expect(JSON.parse(line)).toMatchObject({
      level: 'error',
      msg: 'handler failed',
      stack: 'Error: boom\n    at x',
    });
  });

  it('prints nothing below LOG_LEVEL', () => {
    expect(capture(() => json.debug('detail', 'X'))).toEqual([]);
    const debug = createAppLogger('x', { LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }, 'text');
    expect(capture(() => debug.debug('detail', 'X'))).toHaveLength(1);
  });

  it('in text format writes Nest’s console line with the correlation id after the context', () => {
    const text = createAppLogger('consign', { LOG_LEVEL: 'log', LOG_FORMAT: undefined }, 'text');
    expect(text.format).toBe('text');
    const [line] = capture(() =>
      runWithCorrelationId('abc-123', () => text.log('Consign is running at http://x', 'Consign')),
    );
    expect(line).toMatch(/\[Consign\] .*correlation_id=abc-123 .*Consign is running at http:\/\/x/);
  });

  it('in text format colours its lines on a terminal only, as NO_COLOR and FORCE_COLOR say', () => {
    const tty = { isTTY: true };
    const file = { isTTY: undefined };
    expect(textColors({}, tty)).toBe(true);
    expect(textColors({}, file)).toBe(false);
    expect(textColors({ NO_COLOR: '1' }, tty)).toBe(false);
    expect(textColors({ NO_COLOR: '' }, tty)).toBe(true);
    expect(textColors({ FORCE_COLOR: '1' }, file)).toBe(true);
    expect(textColors({ FORCE_COLOR: '0' }, tty)).toBe(false);
    expect(textColors({ FORCE_COLOR: 'false' }, tty)).toBe(false);
    expect(textColors({ FORCE_COLOR: '1', NO_COLOR: '1' }, tty)).toBe(false);
    // The app's logger follows them (set here: a terminal run of jest may force colours, or be
    // a terminal).
    const lineWith = (env: Record<string, string>, isTTY: boolean): string => {
      const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR };
      const savedTTY = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
      delete process.env.NO_COLOR;
      delete process.env.FORCE_COLOR;
      Object.assign(process.env, env);
      Object.defineProperty(process.stdout, 'isTTY', { value: isTTY, configurable: true });
      try {
        const text = createAppLogger('consign', { LOG_LEVEL: 'log', LOG_FORMAT: 'text' }, 'text');
        const [line] = capture(() => text.log('API key of merchant 1: csk_x', 'Consign'));
        expect(line).toContain('API key of merchant 1: csk_x');
        return line;
      } finally {
        for (const [name, value] of Object.entries(saved))
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        if (savedTTY) Object.defineProperty(process.stdout, 'isTTY', savedTTY);
        else delete (process.stdout as { isTTY?: boolean }).isTTY;
      }
    };
    expect(lineWith({}, false)).not.toContain('\x1b['); // `npm start > file`
    expect(lineWith({}, true)).toContain('\x1b[');
    expect(lineWith({ NO_COLOR: '1' }, true)).not.toContain('\x1b[');
    expect(lineWith({ FORCE_COLOR: '1' }, false)).toContain('\x1b[');
  });

  it('follows LOG_FORMAT over the app’s default', () => {
    expect(createAppLogger('x', { LOG_LEVEL: 'log', LOG_FORMAT: 'json' }, 'text').format).toBe(
      'json',
    );
  });

  it('of an app writes log lines at the end of the turn, and a warning at once after them', async () => {
    const app = createAppLogger('consign', { LOG_LEVEL: 'log', LOG_FORMAT: 'json' }, 'text');
    const out = captureStdout();
    const writes = out.writes;
    try {
      app.log('first', 'X');
      app.log('second', 'X');
      expect(writes).toEqual([]);
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(
        writes
          .join('')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).msg),
      ).toEqual(['first', 'second']);
      expect(writes).toHaveLength(1);
      app.log('third', 'X');
      app.warn('careful', 'X');
      const messages = (text: string) =>
        text
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages(writes.slice(1).join(''))).toEqual(['third', 'careful']);
    } finally {
      out.restore();
    }
  });

  it('writes a flat entry exactly as Nest’s serializer does, and leaves the rest to it', () => {
    class NestSerializer extends AppLogger {
      nest(entry: Record<string, unknown>): string {
        return ConsoleLogger.prototype['stringifyJsonLogObject'].call(this, entry) as string;
      }
      ours(entry: Record<string, unknown>): string {
        return this.stringifyJsonLogObject(entry);
      }
    }
    const logger = new NestSerializer('x', 'json', logLevelsUpTo('log'));
    const entries: Record<string, unknown>[] = [
      { msg: 'GET /x 200 1.5ms', status: 200, duration_ms: 1.5, ok: true, gone: undefined },
      { msg: 'quote " and \\ and \u0000 and é and \ud83d\ude00', nan: NaN, none: null },
      { msg: 'a map', fields: new Map([['a', 1]]) },
      { msg: 'an error', error: new Error('boom'), big: BigInt(7) },
      { msg: 'x'.repeat(1_100_000) },
    ];
    for (const entry of entries) expect(logger.ours(entry)).toBe(logger.nest(entry));
  });
});
