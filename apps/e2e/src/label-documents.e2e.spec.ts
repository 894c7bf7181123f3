import {
  ApiClient,
  Deployment,
  aCalculateOrder,
  aLabel,
  aLabelAddress,
  eventually,
  decodeBarcodes,
  pdfPageAsPng,
  pdfText,
  twoWoolJackets,
  zplAsPng,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

interface Price {
  amount: number;
  currency: string;
  inco_term: string;
  shipping: number;
  fuel_surcharge: number;
  remote_area_surcharge: number;
  vat: number;
  duty: number;
  ddp_handling: number;
}
interface LabelRecord {
  id: number;
  status: string;
  price: Price;
  customs_form: string | null;
  tracking_number: string | null;
  documents: { type: string; format: string; content_type: string; url: string }[];
  void: {
    voided_time: string;
    refunded_amount: number;
    refunded_currency: string;
    late_carrier_events: { description: string; status: string }[];
  } | null;
}
interface Tracking {
  delivered_time: string | null;
  checkpoints: { status: string; description: string }[];
}

/** The parcel: two USD 400 jackets, 2.4 kg, New York to London with DHL Express, DDP. */
const JACKETS = {
  shipper_address: aLabelAddress({
    first_name: 'Grace',
    last_name: 'Hopper',
    city: 'New York',
    province: 'New York',
    province_code: 'NY',
    zip_code: '10001',
    country: 'United States',
    country_code: 'US',
  }),
  shipping_address: aLabelAddress({ zip_code: 'SW1A 1AA' }),
  service: { service_code: 'DHL-EXPRESS', inco_term: 'DDP' },
  currency: 'USD',
  length: undefined,
  width: undefined,
  height: undefined,
  length_unit: undefined,
  package_attributes: undefined,
  items: [twoWoolJackets()],
};

/** Royal Mail within Great Britain: the sandbox leaves it alone; the tests report its events. */
const QUIET = {
  service: { service_code: 'RM-TRACKED48' },
  shipper_address: aLabelAddress({ first_name: 'Charles', last_name: 'Babbage', city: 'Leeds' }),
  currency: 'GBP',
};

/** DHL Express waybill: 9 digits and their remainder modulo 7. */
const isDhlWaybill = (number: string) =>
  /^\d{10}$/.test(number) && Number(number.slice(0, 9)) % 7 === Number(number[9]);

/**
 * Label documents, one price with calculate/order and calculate/freight, and void, end to end:
 * the documents are read back as a scanner would (the PDF through pdftoppm, the ZPL through a
 * ZPL renderer, then ZXing).
 */
describe.each(DEPLOYMENT_MODES)('label documents, price and void (%s)', (mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;
  let carrier: ApiClient;

  beforeAll(async () => {
    deployment = await start({
      env: {
        CARRIER_SANDBOX_STEP_MS: '300',
        CARRIER_SANDBOX_SCENARIOS: 'delivered',
        CARRIER_SANDBOX_CARRIERS: 'DHL',
      },
    });
    api = deployment.client;
    carrier = await deployment.createCarrierKey('RM');
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  const createLabel = async (overrides: Record<string, unknown>) => {
    const created = await api.post<number>('/2026-05/cloud/label', aLabel(overrides));
    expect(created.body).toMatchObject({ code: 200, message: 'success' });
    return created.body.data!;
  };
  const record = async (id: number) =>
    (await api.get<LabelRecord>(`/2026-05/cloud/label/${id}`)).body.data!;
  const rmEvents = async (events: Record<string, unknown>[]) => {
    const response = await carrier.post('/2026-05/cloud/carrier/RM/events', { events });
    expect(response.status).toBe(200);
  };
  const allocate = (id: number, number: string) =>
    rmEvents([
      {
        label_id: id,
        event_code: 'SENDER_PREPARING',
        description: 'Sender preparing item',
        event_time: new Date(Date.now() - 60_000).toISOString(),
        allocation: { tracking_courier: 'RM', tracking_number: number },
      },
    ]);

  it('prices a label as calculate/order and calculate/freight price the same parcel', async () => {
    // Worked by hand in docs/pricing.md: shipping 64.90, fuel 17.85, duty 35.31, VAT 183.61,
    // DDP fee 13.92 (GBP 11): 315.59.
    const expected = {
      amount: 315.59,
      currency: 'USD',
      inco_term: 'DDP',
      shipping: 64.9,
      fuel_surcharge: 17.85,
      remote_area_surcharge: 0,
      vat: 183.61,
      duty: 35.31,
      ddp_handling: 13.92,
    };
    const label = await record(await createLabel(JACKETS));
    expect(label.price).toEqual(expected);
    expect(label.customs_form).toBe('CN23');

    const order = await api.put<Record<string, unknown>[]>(
      '/2025-07/cloud/calculate/order',
      aCalculateOrder({
        dest_address: { country_code: 'GB', city: 'London', zip_code: 'SW1A 1AA' },
        origin_addresses: [{ warehouse_code: 'WH-NJ-01', country_code: 'US' }],
        weight: 2.4,
        weight_unit: 'kg',
        dimension: undefined,
        declared_value: 800,
        currency: 'USD',
      }),
    );
    const candidate = order.body.data!.find(
      (r) => r.service_code === 'DHL-EXPRESS' && r.inco_term === 'DDP',
    );
    const { amount: _amount, ...lines } = expected;
    expect(candidate).toMatchObject(lines);

    const freight = await api.put<Record<string, unknown>>('/2025-07/cloud/calculate/freight', {
      origin_country_code: 'US',
      dest_country_code: 'GB',
      dest_zip_code: 'SW1A 1AA',
      weight: 2.4,
      weight_unit: 'kg',
      service_code: 'DHL-EXPRESS',
      inco_term: 'DDP',
      declared_value: 800,
      currency: 'USD',
    });
    expect(freight.body.data).toMatchObject({ ...expected, customs_form: 'CN23' });
  });

  it('prices a label in its own currency (each line converted, the amount their sum)', async () => {
    // Two EUR 400 jackets: duty 38.09 and VAT 198.08 in USD; in EUR (× 0.92, half up) 59.71 +
    // 16.42 + 35.04 + 182.23 + 12.81 = 306.21.
    const label = await record(await createLabel({ ...JACKETS, currency: 'EUR' }));
    expect(label.price).toEqual({
      amount: 306.21,
      currency: 'EUR',
      inco_term: 'DDP',
      shipping: 59.71,
      fuel_surcharge: 16.42,
      remote_area_surcharge: 0,
      vat: 182.23,
      duty: 35.04,
      ddp_handling: 12.81,
    });
  });

  it('answers 409 for documents before the carrier numbers the label', async () => {
    const id = await createLabel(QUIET);
    const early = await api.getBytes(`/2026-05/cloud/label/${id}/document?format=pdf`);
    expect(early.status).toBe(409);
    expect(JSON.parse(early.bytes.toString('utf8'))).toEqual({
      code: 409,
      message: expect.stringContaining('has no tracking number yet'),
      data: null,
    });
    expect((await record(id)).documents).toEqual([]);
    const bad = await api.get(`/2026-05/cloud/label/${id}/document?format=gif`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('format');
  });

  it('prints a sandbox label in PDF, PNG and ZPL whose barcode reads back as its tracking number', async () => {
    const id = await createLabel(JACKETS);
    const label = await eventually(
      () => record(id),
      (l) => l.documents.length > 0,
      { timeoutMs: 45_000 },
    );
    const number = label.tracking_number!;
    expect(isDhlWaybill(number)).toBe(true);
    expect(label.documents.map((d) => d.url)).toEqual([
      `/2026-05/cloud/label/${id}/document?format=pdf`,
      `/2026-05/cloud/label/${id}/document?format=png`,
      `/2026-05/cloud/label/${id}/document?format=zpl`,
      `/2026-05/cloud/label/${id}/document?format=pdf&type=customs`,
    ]);
    const fetchDocument = async (url: string, contentType: string) => {
      const response = await api.getBytes(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(contentType);
      return response.bytes;
    };
    const pdf = await fetchDocument(label.documents[0].url, 'application/pdf');
    const png = await fetchDocument(label.documents[1].url, 'image/png');
    const zpl = await fetchDocument(label.documents[2].url, 'application/zpl');
    for (const image of [await pdfPageAsPng(pdf), png, await zplAsPng(zpl.toString('utf8'))]) {
      const codes = await decodeBarcodes(image);
      expect(codes).toContainEqual({ format: 'Code128', text: number });
      expect(codes).toContainEqual({
        format: 'PDF417',
        text: expect.stringMatching(
          new RegExp(`^${number}\\|GB\\|SW1A1AA\\|DHL-EXPRESS\\|2\\.4KG`),
        ),
      });
    }
    const customs = await fetchDocument(label.documents[3].url, 'application/pdf');
    expect(await decodeBarcodes(await pdfPageAsPng(customs, 300))).toContainEqual({
      format: 'Code128',
      text: number,
    });
  });

  it('takes optional fields given as null as absent: the same price, and a label that prints', async () => {
    // They once answered 500: a null zip code in the pricing, a null address2 in the renderer.
    // docs/openapi.json lists null for each of them (README, HTTP rules: taken as absent), and
    // the request goes through the validating proxy as every other one does.
    const id = await createLabel({
      ...JACKETS,
      shipping_address: {
        ...JACKETS.shipping_address,
        company_name: null,
        address2: null,
        district: null,
        province: null,
        province_code: null,
      },
      shipper_address: { ...JACKETS.shipper_address, address2: null, district: null },
      package_attributes: null,
      metadata: null,
      expect_pickup_time: null,
    });
    const label = await eventually(
      () => record(id),
      (l) => l.documents.length > 0,
      { timeoutMs: 45_000 },
    );
    expect(label.price).toEqual((await record(await createLabel(JACKETS))).price);
    const pdf = await api.getBytes(label.documents[0].url);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain('London');
    expect(text).not.toContain('null');
  });

  it('voids an unscanned label: status, tracking, refund, 410 for documents; idempotent', async () => {
    const id = await createLabel(QUIET);
    await allocate(id, `RR${String(id).padStart(8, '0')}5GB`);
    expect((await record(id)).documents).toHaveLength(3);

    const voided = await api.post<LabelRecord>(`/2026-05/cloud/label/${id}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body.data).toMatchObject({
      status: 'voided',
      documents: [],
      void: { refunded_amount: expect.any(Number), refunded_currency: 'GBP' },
    });
    expect(voided.body.data!.void!.refunded_amount).toBe(voided.body.data!.price.amount);
    const tracking = (await api.get<Tracking>(`/2026-05/cloud/label/tracking/${id}`)).body.data!;
    expect(tracking.checkpoints[0]).toMatchObject({
      status: 'exception',
      description: expect.stringContaining('Label voided'),
    });
    const gone = await api.getBytes(`/2026-05/cloud/label/${id}/document?format=png`);
    expect(gone.status).toBe(410);
    expect(JSON.parse(gone.bytes.toString('utf8'))).toMatchObject({ code: 410, data: null });

    const again = await api.post<LabelRecord>(`/2026-05/cloud/label/${id}/void`);
    expect(again.status).toBe(200);
    expect(again.body.data!.void).toEqual(voided.body.data!.void);

    // A late carrier event is kept and flagged; the label is not revived.
    await rmEvents([
      {
        label_id: id,
        event_code: 'DELIVERED',
        description: 'Delivered',
        event_time: new Date().toISOString(),
      },
    ]);
    const after = await record(id);
    expect(after.status).toBe('voided');
    expect(after.void!.late_carrier_events).toEqual([
      expect.objectContaining({ description: 'Delivered', status: 'delivered' }),
    ]);
    const afterTracking = (await api.get<Tracking>(`/2026-05/cloud/label/tracking/${id}`)).body
      .data!;
    expect(afterTracking.delivered_time).toBeNull();
    expect(afterTracking.checkpoints.map((c) => c.status)).not.toContain('delivered');
  });

  it('refuses to void a label the carrier has scanned (409 with the reason)', async () => {
    const id = await createLabel(QUIET);
    await allocate(id, `RR${String(id).padStart(8, '0')}6GB`);
    await rmEvents([
      {
        label_id: id,
        event_code: 'ITEM_RECEIVED',
        description: 'Item received',
        event_time: new Date().toISOString(),
      },
    ]);
    const refused = await api.post(`/2026-05/cloud/label/${id}/void`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 409,
      message: expect.stringContaining('"Item received"'),
      data: null,
    });
    expect((await record(id)).status).toBe('in_transit');
  });
});
