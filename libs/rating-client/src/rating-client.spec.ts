import { CommonErrorCode, RatingTopic, failure, success } from '@consign/contracts';
import { CommandBus, InProcessBroker, InProcessClient } from '@consign/bus';
import { loadConfig } from '@consign/config';
import { runInMessageScope } from '@consign/observability';
import { RatingClient } from './rating-client';

const WAREHOUSES = [{ code: 'WH-NL-AMS', name: 'Amsterdam', country_code: 'NL' }];

describe('RatingClient', () => {
  let broker: InProcessBroker;
  const make = (env: Record<string, string> = {}) => {
    const config = loadConfig({ BUS_TIMEOUT_MS: '400', ...env });
    return new RatingClient(new CommandBus(new InProcessClient(broker), config), config);
  };

  beforeEach(() => {
    broker = new InProcessBroker();
  });

  it('asks rating-service once per merchant and reuses the answer', async () => {
    const asked: unknown[] = [];
    broker.registerRequestHandler(RatingTopic.ListWarehouses, async (data) => {
      asked.push(data);
      return success(WAREHOUSES);
    });
    const reference = make();
    const answers = await Promise.all([
      reference.warehouses(4),
      reference.warehouses(4),
      reference.warehouses(5),
    ]);
    expect(answers).toEqual([WAREHOUSES, WAREHOUSES, WAREHOUSES]);
    await reference.warehouses(4);
    expect(asked).toEqual([{ merchant_id: 4 }, { merchant_id: 5 }]);
  });

  it('is Unavailable (503) when rating-service is not there, and asks again next time', async () => {
    const reference = make();
    await expect(reference.services(4)).rejects.toMatchObject({
      code: CommonErrorCode.Unavailable,
    });
    broker.registerRequestHandler(RatingTopic.ListServices, async () =>
      success([{ service_code: 'UPS-STD', carrier: 'UPS', inco_terms: ['DAP'] }]),
    );
    await expect(reference.services(4)).resolves.toHaveLength(1);
  });

  it('is Unavailable when rating-service answers too late or with an error', async () => {
    broker.registerRequestHandler(RatingTopic.ListWarehouses, () => new Promise(() => undefined));
    broker.registerRequestHandler(RatingTopic.ListServices, async () =>
      failure(CommonErrorCode.Internal, 'boom'),
    );
    const reference = make();
    const started = Date.now();
    await expect(reference.warehouses(4)).rejects.toMatchObject({
      code: CommonErrorCode.Unavailable,
    });
    // Half the bus timeout: the gateway, waiting the full timeout, still hears the 503.
    expect(Date.now() - started).toBeLessThan(400);
    await expect(reference.services(4)).rejects.toMatchObject({
      code: CommonErrorCode.Unavailable,
    });
  });

  it('waits half the time the command being handled has left, not half the bus timeout', async () => {
    // Answers after 500 ms: later than half the bus timeout (200 ms), well inside half of what a
    // command with 4 s left may wait (2 s).
    broker.registerRequestHandler(
      RatingTopic.ListWarehouses,
      () => new Promise((resolve) => setTimeout(() => resolve(success(WAREHOUSES)), 500)),
    );
    const command = { id: 'c0ffee00-0000-4000-8000-000000000001', topic: 'label.create.v1' };
    await expect(
      runInMessageScope(
        { correlationId: 'slow-rating', command: { ...command, deadline: Date.now() + 4_000 } },
        () => make().warehouses(4),
      ),
    ).resolves.toEqual(WAREHOUSES);
    await expect(
      runInMessageScope({ correlationId: 'no-deadline', command }, () => make().warehouses(4)),
    ).rejects.toMatchObject({ code: CommonErrorCode.Unavailable });
  });
});
