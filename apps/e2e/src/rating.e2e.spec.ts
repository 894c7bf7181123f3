import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApiClient,
  Deployment,
  REPO_ROOT,
  aCalculateFreight,
  aCalculateOrder,
  startStandalone,
  tempDir,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

type Result = Record<string, unknown>;

const ORDER = '/2025-07/cloud/calculate/order';
const FREIGHT = '/2025-07/cloud/calculate/freight';

/** Every field of the spec's order cost result, in its order. */
const ORDER_RESULT_FIELDS = [
  'code',
  'message',
  'error_code',
  'inco_term',
  'fulfillment',
  'packaging',
  'pick_pack',
  'gift_card',
  'shipping',
  'total_shipping',
  'total_tax',
  'fuel_surcharge',
  'remote_area_surcharge',
  'service_name',
  'service_code',
  'service_zone',
  'service_id',
  'service_zone_id',
  'platform',
  'amount',
  'currency',
  'vat',
  'duty',
  'ddp_handling',
  'tax_currency',
  'charge_weight_unit',
  'charge_weight',
  'original_weight_unit',
  'original_weight',
  'timeliness',
  'carrier',
  'warehouse_code',
];

describe.each(DEPLOYMENT_MODES)('rating (%s)', (_mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;

  beforeAll(async () => {
    deployment = await start();
    api = deployment.client;
  });

  afterAll(async () => {
    await deployment?.stop();
  });

  it('lists the warehouses a merchant may name', async () => {
    const response = await api.get<Result[]>('/2025-07/cloud/warehouse');
    expect(response.status).toBe(200);
    const warehouses = response.body.data!;
    expect(warehouses.map((w) => w.code)).toEqual(['WH-NJ-01', 'WH-CA-01', 'WH-DE-01', 'WH-GB-01']);
    expect(warehouses[2]).toMatchObject({
      name: 'Consign Leipzig',
      country_code: 'DE',
      timezone: 'Europe/Berlin',
      currency: 'EUR',
      address: { city: 'Leipzig', zip_code: '04158', country_code: 'DE' },
      fees: { fulfillment: 1.2, pick_pack: { per_order: 0.9, per_extra_unit: 0.2 } },
    });
  });

  it('lists the carrier services with their codes, carriers and inco terms', async () => {
    const response = await api.get<Result[]>('/2025-07/cloud/service');
    expect(response.status).toBe(200);
    const services = response.body.data!;
    expect(services.map((s) => s.service_code)).toEqual([
      'UPS-GROUND',
      'USPS-GROUND-ADV',
      'USPS-INTL',
      'DHL-EXPRESS',
      'DPD-CLASSIC',
      'RM-TRACKED48',
    ]);
    expect(services.find((s) => s.service_code === 'DHL-EXPRESS')).toMatchObject({
      service_id: 1004,
      carrier: 'DHL',
      carrier_name: 'DHL Express',
      inco_terms: ['DAP', 'DDP'],
      timeliness: '1-3 days',
      volumetric_divisor: 5000,
      charge_weight_unit: 'kg',
    });
  });

  it('prices an order per candidate, cheapest first, every field filled (worked example)', async () => {
    const response = await api.put<Result[]>(ORDER, aCalculateOrder());
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, message: 'success' });
    const [ups, usps, ...failures] = response.body.data!;
    // docs/pricing.md: 16 × 12 × 10 in → 13.87 lb volumetric → 14 lb; US-C; 28.10 + fuel 5.48
    // + fulfilment 1.25 + pick & pack 0.85 + packaging L 1.50 = 37.18.
    expect(Object.keys(ups)).toEqual(ORDER_RESULT_FIELDS);
    expect(ups).toEqual({
      code: 200,
      message: 'success',
      error_code: null,
      inco_term: 'DAP',
      fulfillment: 1.25,
      packaging: 1.5,
      pick_pack: 0.85,
      gift_card: 0,
      shipping: 28.1,
      total_shipping: 33.58,
      total_tax: 0,
      fuel_surcharge: 5.48,
      remote_area_surcharge: 0,
      service_name: 'UPS Ground',
      service_code: 'UPS-GROUND',
      service_zone: 'US-C',
      service_id: 1001,
      service_zone_id: 100102,
      platform: 'UPS API',
      amount: 37.18,
      currency: 'USD',
      vat: 0,
      duty: 0,
      ddp_handling: 0,
      tax_currency: 'USD',
      charge_weight_unit: 'lb',
      charge_weight: 14,
      original_weight_unit: 'lb',
      original_weight: 2,
      timeliness: '1-5 days',
      carrier: 'UPS',
      warehouse_code: 'WH-NJ-01',
    });
    expect(usps).toMatchObject({
      service_code: 'USPS-GROUND-ADV',
      charge_weight: 12,
      amount: 38.8,
    });
    // The international services cannot carry within the US: elements, not a failed call.
    expect(failures.map((f) => [f.service_code, f.code, f.error_code])).toEqual([
      ['USPS-INTL', 422, 'rating.no_zone'],
      ['DHL-EXPRESS', 422, 'rating.no_zone'],
    ]);
  });

  it('reports an unknown warehouse and restricted contents per candidate, pricing the rest', async () => {
    const response = await api.put<Result[]>(
      ORDER,
      aCalculateOrder({
        dest_address: { country_code: 'CA', zip_code: 'M5V 2T6', city: 'Toronto' },
        origin_addresses: [
          { warehouse_code: 'WH-NJ-01', country_code: 'US' },
          { warehouse_code: 'WH-XX-99', country_code: 'US' },
        ],
        battery: 'Yes',
        declared_value: 120,
        currency: 'CAD',
      }),
    );
    expect(response.status).toBe(200);
    const results = response.body.data!;
    expect(results.filter((r) => r.code === 200).map((r) => [r.service_code, r.inco_term])).toEqual(
      [
        ['DHL-EXPRESS', 'DAP'],
        ['DHL-EXPRESS', 'DDP'],
      ],
    );
    expect(results.find((r) => r.warehouse_code === 'WH-XX-99')).toMatchObject({
      code: 404,
      error_code: 'rating.warehouse_not_found',
      amount: null,
    });
    expect(results.find((r) => r.service_code === 'USPS-INTL')).toMatchObject({
      code: 422,
      error_code: 'rating.restricted_contents',
      message: 'USPS First-Class Package International does not carry battery.',
    });
  });

  it('collects duty and VAT under DDP above the de minimis (worked example)', async () => {
    const response = await api.put<Result[]>(
      ORDER,
      aCalculateOrder({
        origin_addresses: [{ warehouse_code: 'WH-DE-01', country_code: 'DE' }],
        dest_address: { country_code: 'GB', zip_code: 'SW1A 1AA', city: 'London' },
        weight: 2,
        weight_unit: 'kg',
        dimension: undefined,
        declared_value: 200,
        currency: 'GBP',
      }),
    );
    const ddp = response.body.data!.find((r) => r.inco_term === 'DDP');
    expect(ddp).toMatchObject({ duty: 12.94, vat: 67.3, total_tax: 80.24, ddp_handling: 13.92 });
    expect(ddp).toMatchObject({ total_shipping: 70.38, amount: 167.69, currency: 'USD' });
  });

  it('answers 400 naming each offending field', async () => {
    const response = await api.put(
      ORDER,
      aCalculateOrder({
        weight: 1.005,
        weight_unit: 'stone',
        dimension: { length: 10, width: 10, height: 10, uom: 'inch' },
        dest_address: { country_code: 'usa' },
        origin_addresses: [],
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 400, data: null });
    for (const field of [
      'weight must be a number with at most 12 digits, 2 of them decimals',
      'weight_unit',
      'dimension.uom',
      'dest_address.country_code',
      'origin_addresses should not be empty',
    ])
      expect(response.body.message).toContain(field);
  });

  it('answers 400 for a declared value in a currency without a rate', async () => {
    const response = await api.put(ORDER, aCalculateOrder({ declared_value: 10, currency: 'CHF' }));
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/currency CHF has no conversion rate/);
  });

  it('prices freight for one service (worked example)', async () => {
    const response = await api.put<Result>(FREIGHT, aCalculateFreight());
    expect(response.status).toBe(200);
    // 1.26 kg volumetric → 1.5 kg; Z1 61.50 + fuel 16.91; DDP handling 15.00 = 93.41.
    expect(response.body.data).toEqual({
      carrier_code: 'DHL',
      inco_term: 'DDP',
      amount: 93.41,
      shipping: 61.5,
      fuel_surcharge: 16.91,
      remote_area_surcharge: 0,
      vat: 0,
      duty: 0,
      ddp_handling: 15,
      currency: 'USD',
      // China to the US: a CN22, nothing being declared.
      customs_form: 'CN22',
      message: 'success',
    });
  });

  it('accepts the weight unit as weight_uom', async () => {
    const body = aCalculateFreight({ inco_term: 'DAP', weight_unit: undefined, weight_uom: 'kg' });
    const response = await api.put<Result>(FREIGHT, body);
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ inco_term: 'DAP', amount: 78.41 });
  });

  it('requires inco_term when the service offers DAP and DDP, naming it', async () => {
    const response = await api.put(FREIGHT, aCalculateFreight({ inco_term: undefined }));
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 400,
      message: 'Validation failed: inco_term is required: service DHL-EXPRESS offers DAP and DDP',
      data: null,
    });
  });

  it('answers 400 for an unknown service and 422 for a destination the service does not reach', async () => {
    const unknown = await api.put(FREIGHT, aCalculateFreight({ service_code: 'FEDEX-2DAY' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('service_code FEDEX-2DAY');
    const noZone = await api.put(
      FREIGHT,
      aCalculateFreight({
        origin_country_code: 'US',
        service_code: 'UPS-GROUND',
        inco_term: 'DAP',
        dest_country_code: 'JP',
        dest_zip_code: '100-0001',
        dest_city: 'Tokyo',
      }),
    );
    expect(noZone.status).toBe(422);
    expect(noZone.body).toEqual({
      code: 422,
      message: 'UPS Ground does not deliver to JP 100-0001 Tokyo.',
      data: null,
    });
  });

  it('asks for an API key', async () => {
    expect((await api.withKey(undefined).put(ORDER, aCalculateOrder())).status).toBe(401);
    expect((await api.withKey(undefined).get('/2025-07/cloud/service')).status).toBe(401);
  });
});

describe('rate cards at start-up', () => {
  it('a bad card stops the start, naming the file and the field', async () => {
    const folder = tempDir('rate-cards');
    try {
      cpSync(join(REPO_ROOT, 'libs', 'rating', 'rate-cards'), folder, { recursive: true });
      const file = join(folder, 'warehouses.v1.json');
      const card = JSON.parse(readFileSync(file, 'utf8'));
      card.warehouses[1].fees.fulfillment = 1.255;
      writeFileSync(file, JSON.stringify(card));
      await expect(startStandalone({ env: { RATE_CARDS_DIR: folder } })).rejects.toThrow(
        `${file}: warehouses[1].fees.fulfillment must be a number with at most 12 digits, 2 of them decimals`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
