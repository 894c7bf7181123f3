import { AppLogger, createAppLogger, logLevelsUpTo } from './app-logger';
import { runWithCorrelationId } from './correlation';

function capture(run: () => void): string[] {
  const lines: string[] = [];
  const out = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  const err = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  return lines;
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

  it('follows LOG_FORMAT over the app’s default', () => {
    expect(createAppLogger('x', { LOG_LEVEL: 'log', LOG_FORMAT: 'json' }, 'text').format).toBe(
      'json',
    );
  });
});
