import { CommonErrorCode, CatalogTopic, success } from '@consign/contracts';
import { AppConfig, loadConfig } from '../config/app-config';
import { CommandBus } from './command-bus';
import { InProcessBroker } from './in-process-broker';
import { InProcessClient } from './in-process.transport';

describe('CommandBus', () => {
  let broker: InProcessBroker;
  let bus: CommandBus;
  const config: AppConfig = loadConfig({ BUS_TIMEOUT_MS: '200' });
  const query = { merchant_id: 1, product_id: 5 };

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

  it('answers Timeout when no reply comes in time', async () => {
    broker.registerRequestHandler(CatalogTopic.GetProduct, () => new Promise(() => undefined));
    const reply = await bus.request(CatalogTopic.GetProduct, query, { key: '5' });
    expect(reply).toMatchObject({ ok: false, error: { code: CommonErrorCode.Timeout } });
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
});
