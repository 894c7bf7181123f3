import { LoggingApp, problemsLogged, runningApps } from './running-apps';

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

function app(name: string, lines: string[]): LoggingApp {
  return { name, pid: 4242, output: () => `${lines.join('\n')}\n` };
}

describe('problemsLogged', () => {
  const since = Date.parse('2026-11-28T04:00:00.000Z');

  it('shows the warnings and errors logged since the test began, as a person reads them', () => {
    const gateway = app('api-gateway', [
      line({ time: '2026-11-28T03:59:59.999Z', level: 'warn', msg: 'before the test' }),
      line({ time: '2026-11-28T04:00:01.000Z', level: 'log', msg: 'a request' }),
      line({
        time: '2026-11-28T04:00:02.000Z',
        level: 'warn',
        context: 'CommandBus',
        msg: 'request on label.create failed: no reply partition',
        correlation_id: 'c-1',
      }),
      'Nest application started (a plain line)',
      '{"not json',
      line({
        time: '2026-11-28T04:00:03.000Z',
        level: 'error',
        msg: 'boom',
        stack: 'Error: boom\n    at a\n    at b',
      }),
    ]);
    const quiet = app('rating-service', [
      line({ time: '2026-11-28T04:00:02.000Z', level: 'log', msg: 'ready' }),
    ]);

    expect(problemsLogged([gateway, quiet], since)).toBe(
      [
        'api-gateway (pid 4242):',
        '  2026-11-28T04:00:02.000Z warn [CommandBus] request on label.create failed: no reply partition (correlation c-1)',
        '  2026-11-28T04:00:03.000Z error boom',
        '      Error: boom',
        '          at a',
        '          at b',
      ].join('\n'),
    );
  });

  it("reads Nest's text lines too (local time, to the second), with an error's stack", () => {
    const began = new Date(2026, 10, 28, 4, 0, 0, 500).getTime();
    const standalone = app('standalone', [
      '[consign] 15721  - 11/28/2026, 3:59:59 AM    WARN [RateLimit] before the test',
      '[consign] 15721  - 11/28/2026, 4:00:00 AM     LOG [Consign] Press Ctrl-C to stop.',
      '[consign] 15721  - 11/28/2026, 4:00:00 AM    WARN [RateLimit] Redis unreachable',
      '[consign] 15721  - 11/28/2026, 4:00:02 AM   ERROR [ExceptionsHandler] boom',
      'Error: boom',
      '    at handler (/app/x.js:1:1)',
      '[consign] 15721  - 11/28/2026, 4:00:03 AM     LOG [HttpAccess] GET / 500',
    ]);
    expect(problemsLogged([standalone], began).split('\n')).toEqual([
      'standalone (pid 4242):',
      '  11/28/2026, 4:00:00 AM warn [RateLimit] Redis unreachable',
      '  11/28/2026, 4:00:02 AM error [ExceptionsHandler] boom',
      '      Error: boom',
      '      at handler (/app/x.js:1:1)',
    ]);
  });

  it('is empty when nothing went wrong, and keeps the last lines of a noisy app', () => {
    expect(problemsLogged([app('quiet', ['plain'])], since)).toBe('');
    const noisy = app(
      'noisy',
      Array.from({ length: 5 }, (_, i) =>
        line({ time: `2026-11-28T04:00:0${i}.000Z`, level: 'warn', msg: `warning ${i}` }),
      ),
    );
    expect(problemsLogged([noisy], since, 2).split('\n')).toEqual([
      'noisy (pid 4242): the last 2 of 5',
      '  2026-11-28T04:00:03.000Z warn warning 3',
      '  2026-11-28T04:00:04.000Z warn warning 4',
    ]);
  });
});

describe('runningApps', () => {
  it('is one registry per global object', () => {
    const scope = {};
    const registered = app('order-service', []);
    runningApps(scope).add(registered);
    expect([...runningApps(scope)]).toEqual([registered]);
    expect(runningApps({}).size).toBe(0);
  });
});
