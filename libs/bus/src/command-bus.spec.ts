import { CommonErrorCode, CatalogTopic, success } from '@consign/contracts';
import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { AppConfig, loadConfig } from '@consign/config';
import { spyOnLogger } from '@consign/testing/logging';
import { busHealth } from './bus-health';
import { CommandBus } from './command-bus';
import { InProcessBroker } from './in-process-broker';
import { InProcessClient } from './in-process.transport';
import { BusMessageTooLarge } from './kafka/bounded-serializer';

describe('CommandBus', () => {
  let broker: InProcessBroker;
  let bus: CommandBus;
  const config: AppConfig = loadConfig({ BUS_TIMEOUT_MS: '200' });
  const query = { merchant_id: 1, product_id: 5 };
  const warn = spyOnLogger('warn');

  beforeEach(() => {
    broker = new InProcessBroker();
    bus = new CommandBus(new InProcessClient(broker), config);
  });

  it('returns the service’s reply, with the payload as sent', async () => {
    let seen: unknown;
    broker.registerRequestHandler(CatalogTopic.GetProduct, async (data) => {
      seen = data;
      return success({ id: 5 });
    });
    await expect(bus.request(CatalogTopic.GetProduct, query, { key: '5' })).resolves.toEqual({
      ok: true,
      data: { id: 5 },
    });
    expect(seen).toEqual(query);
  });

  it('answers Timeout when no reply comes in time, and logs which topic did not answer', async () => {
    broker.registerRequestHandler(CatalogTopic.GetProduct, () => new Promise(() => undefined));
    const reply = await bus.request(CatalogTopic.GetProduct, query, { key: '5' });
    expect(reply).toEqual({
      ok: false,
      error: {
        code: CommonErrorCode.Timeout,
        message: 'The catalog service did not answer in time.',
      },
    });
    expect(warn()).toHaveBeenCalledWith(`no reply on ${CatalogTopic.GetProduct} within 200 ms`);
  });

  it("tells readiness when a topic's requests keep timing out, and when one is answered", async () => {
    let answer = false;
    broker.registerRequestHandler(CatalogTopic.GetProduct, () =>
      answer ? Promise.resolve(success({ id: 5 })) : new Promise(() => undefined),
    );
    for (let i = 0; i < 2; i++) await bus.request(CatalogTopic.GetProduct, query, { key: '5' });
    expect(busHealth.timingOut(2, 60_000).map((t) => t.topic)).toContain(CatalogTopic.GetProduct);
    answer = true;
    await bus.request(CatalogTopic.GetProduct, query, { key: '5' });
    expect(busHealth.timingOut(1, 60_000).map((t) => t.topic)).not.toContain(
      CatalogTopic.GetProduct,
    );
  });

  it('answers Unavailable when no service handles the topic', async () => {
    const reply = await bus.request(CatalogTopic.GetProduct, query, { key: '5' });
    expect(reply).toMatchObject({ ok: false, error: { code: CommonErrorCode.Unavailable } });
  });

  it('answers Unavailable for a reply that is not a Reply', async () => {
    broker.registerRequestHandler(CatalogTopic.GetProduct, async () => ({ id: 5 }));
    const reply = await bus.request(CatalogTopic.GetProduct, query, { key: '5' });
    expect(reply).toMatchObject({ ok: false, error: { code: CommonErrorCode.Unavailable } });
  });

  it('answers Unavailable when the handler fails or gives no reply', async () => {
    broker.registerRequestHandler(CatalogTopic.GetProduct, async () => {
      throw new Error('boom');
    });
    broker.registerRequestHandler(CatalogTopic.ListProducts, async () => undefined);
    for (const topic of [CatalogTopic.GetProduct, CatalogTopic.ListProducts] as const) {
      const reply = await bus.request(topic, query as never, { key: '5' });
      expect(reply).toMatchObject({ ok: false, error: { code: CommonErrorCode.Unavailable } });
    }
  });

  it('gets the same outcomes through a client that is not in-process', async () => {
    const observed = new CommandBus(new ObservableClient(broker), config);
    broker.registerRequestHandler(CatalogTopic.GetProduct, async () => success({ id: 5 }));
    await expect(observed.request(CatalogTopic.GetProduct, query, { key: '5' })).resolves.toEqual({
      ok: true,
      data: { id: 5 },
    });
    broker.registerRequestHandler(CatalogTopic.ListProducts, () => new Promise(() => undefined));
    await expect(
      observed.request(CatalogTopic.ListProducts, query as never, { key: '5' }),
    ).resolves.toMatchObject({ ok: false, error: { code: CommonErrorCode.Timeout } });
  });

  it('answers Internal, not Unavailable, for a request too large for the bus (retrying cannot help)', async () => {
    const observed = new CommandBus(new ObservableClient(broker), config);
    broker.registerRequestHandler(CatalogTopic.GetProduct, async () => {
      // What ClientKafka's bounded serializer throws before sending (bounded-serializer.ts).
      throw new BusMessageTooLarge(CatalogTopic.GetProduct, 70_000, 65_536);
    });
    await expect(observed.request(CatalogTopic.GetProduct, query, { key: '5' })).resolves.toEqual({
      ok: false,
      error: {
        code: CommonErrorCode.Internal,
        message: 'The request is larger than one bus message may carry (65536 bytes).',
      },
    });
  });
});

/** A ClientProxy of another class: CommandBus goes through its Observable, as with Kafka. */
class ObservableClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async connect(): Promise<void> {}

  close(): void {}

  unwrap<T>(): T {
    return this.broker as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const { value } = packet.data as { value: unknown };
    this.broker.request(String(packet.pattern), value).then(
      (response) => callback({ response, isDisposed: true }),
      (err: unknown) => callback({ err, isDisposed: true }),
    );
    return () => undefined;
  }

  protected async dispatchEvent<T>(): Promise<T> {
    return undefined as T;
  }
}
