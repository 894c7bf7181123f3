import {
  CreateLabelRequest,
  LabelErrorCode,
  LabelEvent,
  RatingErrorCode,
  failure,
  success,
} from '@consign/contracts';
import {
  LabelTrackingHarness,
  TEST_PRICE,
  aLabelRequest,
  startLabelTracking,
} from './testing/label-tracking.harness';
import { valueOf } from '@consign/testing/fixtures';

function request(changes: Record<string, unknown> = {}): CreateLabelRequest {
  return valueOf(CreateLabelRequest, { ...aLabelRequest(), ...changes });
}

describe('LabelService', () => {
  let h: LabelTrackingHarness;

  beforeAll(async () => {
    h = await startLabelTracking();
  });

  afterAll(async () => {
    await h.close();
  });

  beforeEach(() => {
    h.rating.answer = success(TEST_PRICE);
    h.rating.freightRequests.length = 0;
  });

  const labelCount = async () =>
    Number((await h.dataSource.query(`SELECT count(*) AS n FROM "labels"."label"`))[0].n);

  it('prices the label with rating-service and stores the price and carrier with it', async () => {
    const id = await h.labels.create(7, request());
    expect(h.rating.freightRequests).toEqual([
      expect.objectContaining({
        merchant_id: 7,
        request: expect.objectContaining({
          service_code: 'DHL-EXPRESS',
          weight: 0.8,
          weight_unit: 'kg',
        }),
      }),
    ]);
    const label = await h.labels.get(7, id);
    expect(label).toMatchObject({
      carrier: 'DHL',
      price: {
        amount: 42.5,
        currency: 'USD',
        inco_term: 'DDP',
        shipping: 30,
        fuel_surcharge: 8.25,
        remote_area_surcharge: 0,
        vat: 0,
        duty: 0,
        ddp_handling: 4.25,
      },
    });
    expect(label.price).not.toHaveProperty('carrier_code');
  });

  it('announces the label with its carrier, for the carrier (or the sandbox) to take it', async () => {
    const events: unknown[] = [];
    h.broker.registerEventHandler(LabelEvent.Created, async (event) => {
      events.push(event);
    });
    const id = await h.labels.create(7, request());
    await h.outbox.flush();
    expect(events).toContainEqual(
      expect.objectContaining({
        merchant_id: 7,
        aggregate_id: String(id),
        payload: { label_id: id, service_code: 'DHL-EXPRESS', carrier_code: 'DHL' },
      }),
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an unknown service', { service: { service_code: 'NOPE' } }, LabelErrorCode.InvalidService],
    [
      'an inco term the service does not offer',
      { service: { service_code: 'USPS-INTL', inco_term: 'DDP' } },
      LabelErrorCode.InvalidService,
    ],
    [
      'contents the service refuses',
      { package_attributes: { contains_alcohol: true } },
      LabelErrorCode.RestrictedContents,
    ],
  ])('refuses %s before pricing, and writes nothing', async (_case, changes, code) => {
    const before = await labelCount();
    await expect(h.labels.create(7, request(changes))).rejects.toMatchObject({ code });
    expect(h.rating.freightRequests).toEqual([]);
    expect(await labelCount()).toBe(before);
  });

  it('passes on rating-service’s refusal and writes nothing', async () => {
    h.rating.answer = failure(
      RatingErrorCode.NoZone,
      'DHL Express does not deliver to this place.',
    );
    const before = await labelCount();
    await expect(h.labels.create(7, request())).rejects.toMatchObject({
      code: RatingErrorCode.NoZone,
      message: 'DHL Express does not deliver to this place.',
    });
    expect(await labelCount()).toBe(before);
  });
});
