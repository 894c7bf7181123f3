import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { Test } from '@nestjs/testing';
import { Observable, lastValueFrom, of } from 'rxjs';
import { InProcessBroker, NoHandlerError } from './in-process-broker';
import { InProcessClient, InProcessServer } from './in-process.transport';
import { currentCommand, currentCorrelationId, runWithCorrelationId } from '@consign/observability';
import { commandHeaders } from './command-headers';

const received: unknown[] = [];

@Controller()
class EchoHandlers {
  @MessagePattern('test.echo.v1')
  echo(@Payload() payload: unknown) {
    return { echoed: payload, at: new Date('2026-01-02T03:04:05.000Z') };
  }

  @MessagePattern('test.correlation.v1')
  correlation() {
    return { correlationId: currentCorrelationId() ?? null };
  }

  @MessagePattern('test.command.v1')
  async command() {
    const outer = currentCommand() ?? null;
    // A request made while handling a command is not that command.
    const inner = await client.request('test.inner.v1', { key: '1', value: {} });
    return { outer, inner };
  }

  @MessagePattern('test.inner.v1')
  inner() {
    return currentCommand() ?? null;
  }

  @MessagePattern('test.observable.v1')
  observable(): Observable<number> {
    return of(1, 2, 3);
  }

  @MessagePattern('test.async.v1')
  async later(@Payload() payload: { n: number }): Promise<{ n: number }> {
    return { n: payload.n + 1 };
  }

  @MessagePattern('test.nothing.v1')
  nothing(): void {}

  @MessagePattern('test.fail.v1')
  fail(): never {
    throw new Error('handler blew up');
  }

  @EventPattern('test.happened.v1')
  first(@Payload() payload: unknown) {
    received.push(['first', payload, currentCorrelationId()]);
  }
}

@Controller()
class SecondSubscriber {
  @EventPattern('test.happened.v1')
  second(@Payload() payload: unknown) {
    received.push(['second', payload]);
  }
}

@Module({ controllers: [EchoHandlers, SecondSubscriber] })
class HandlersModule {}

let client: InProcessClient;

describe('in-process transport', () => {
  let app: INestMicroservice;
  let broker: InProcessBroker;

  beforeAll(async () => {
    broker = new InProcessBroker();
    const moduleRef = await Test.createTestingModule({ imports: [HandlersModule] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(broker) });
    await app.listen();
    client = new InProcessClient(broker);
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => received.splice(0));

  it("hands a request's command id and deadline to its handler, and to no request it makes", async () => {
    const deadline = Date.parse('2026-01-02T03:04:05.000Z');
    const id = '6c1f4a3e-2b7d-4c1e-9a53-0d6f3f1b2c44';
    const reply = await runWithCorrelationId('corr-1', () =>
      client.request('test.command.v1', {
        key: '1',
        value: {},
        headers: { 'x-correlation-id': 'corr-1', ...commandHeaders({ id, deadline }) },
      }),
    );
    expect(reply).toEqual({ outer: { id, topic: 'test.command.v1', deadline }, inner: null });
  });

  it('answers a request with what the handler returned, as JSON would carry it', async () => {
    const payload = { nested: { n: 1.5, list: [1, 'two'] }, skipped: undefined };
    const reply = await lastValueFrom(client.send('test.echo.v1', { key: '1', value: payload }));
    expect(reply).toEqual({
      echoed: { nested: { n: 1.5, list: [1, 'two'] } },
      at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('answers what the handler’s promise or the last value of its Observable is', async () => {
    await expect(client.request('test.async.v1', { key: '1', value: { n: 1 } })).resolves.toEqual({
      n: 2,
    });
    await expect(client.request('test.observable.v1', { value: {} })).resolves.toBe(3);
    await expect(client.request('test.nothing.v1', { value: {} })).resolves.toBeUndefined();
    await expect(lastValueFrom(client.send('test.observable.v1', {}))).resolves.toBe(3);
  });

  it('hands the handler a copy, never the caller’s object', async () => {
    const payload = { list: [1] };
    const reply = await lastValueFrom(
      client.send<{ echoed: { list: number[] } }>('test.echo.v1', payload),
    );
    reply.echoed.list.push(2);
    expect(payload.list).toEqual([1]);
  });

  it('delivers an event to every subscriber and resolves after they handled it', async () => {
    await lastValueFrom(client.emit('test.happened.v1', { key: 'k', value: { id: 7 } }), {
      defaultValue: undefined,
    });
    expect(received).toEqual(
      expect.arrayContaining([
        ['first', { id: 7 }, expect.any(String)],
        ['second', { id: 7 }],
      ]),
    );
  });

  it('runs a handler inside the correlation id its x-correlation-id header carries', async () => {
    // Outside any scope, as a relay or a consumer would send: only the header carries the id.
    const reply = await lastValueFrom(
      client.send('test.correlation.v1', {
        key: '1',
        value: {},
        headers: { 'x-correlation-id': 'abc-123' },
      }),
    );
    expect(reply).toEqual({ correlationId: 'abc-123' });
    await lastValueFrom(
      client.emit('test.happened.v1', {
        key: 'k',
        value: { id: 8 },
        headers: { 'x-correlation-id': 'evt-9' },
      }),
      { defaultValue: undefined },
    );
    expect(received).toContainEqual(['first', { id: 8 }, 'evt-9']);
  });

  it('gives a message without a (sane) correlation id a new one, not the sender’s scope', async () => {
    const reply = await runWithCorrelationId('sender-scope', () =>
      lastValueFrom(
        client.send<{ correlationId: string }>('test.correlation.v1', {
          key: '1',
          value: {},
          headers: { 'x-correlation-id': 'bad id with spaces' },
        }),
      ),
    );
    expect(reply.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('runs a request sent from within a scope under the id its header carries, same or not', async () => {
    const send = (header: string) =>
      lastValueFrom(
        client.send<{ correlationId: string }>('test.correlation.v1', {
          key: '1',
          value: {},
          headers: { 'x-correlation-id': header },
        }),
      );
    await expect(runWithCorrelationId('scope-1', () => send('scope-1'))).resolves.toEqual({
      correlationId: 'scope-1',
    });
    await expect(runWithCorrelationId('scope-1', () => send('other-2'))).resolves.toEqual({
      correlationId: 'other-2',
    });
  });

  it('fails a request for a pattern nobody handles', async () => {
    await expect(lastValueFrom(client.send('test.nobody.v1', {}))).rejects.toBeInstanceOf(
      NoHandlerError,
    );
  });

  it('passes a handler’s failure to the caller', async () => {
    await expect(lastValueFrom(client.send('test.fail.v1', {}))).rejects.toBeDefined();
  });

  it('unregisters its handlers when the app closes', async () => {
    const other = new InProcessBroker();
    const moduleRef = await Test.createTestingModule({ imports: [HandlersModule] }).compile();
    const second = moduleRef.createNestMicroservice({ strategy: new InProcessServer(other) });
    await second.listen();
    expect(other.hasRequestHandler('test.echo.v1')).toBe(true);
    await second.close();
    expect(other.hasRequestHandler('test.echo.v1')).toBe(false);
  });
});
