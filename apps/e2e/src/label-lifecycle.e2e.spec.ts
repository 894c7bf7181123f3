import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ApiClient,
  Deployment,
  REPO_ROOT,
  aLabel,
  aLabelAddress,
  aProduct,
  aVariant,
  anInbound,
  anOrder,
  eventually,
} from '@consign/testing';
import { deliveredTracking, local, utc } from './carrier-tracking';
import { DEPLOYMENT_MODES } from './deployment-modes';

const run = promisify(execFile);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PLAIN_UTC = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

interface Checkpoint {
  local_time: string;
  details: string | null;
  description: string;
  status: string;
}
interface OrderTracking {
  tracking_courier: string;
  tracking_number: string;
  outbound_time: string | null;
  delivered_time: string | null;
  checkpoints: Checkpoint[];
}
interface Tracking {
  tracking_courier: string | null;
  tracking_number: string | null;
  outbound_time: string | null;
  delivered_time: string | null;
  checkpoints: Checkpoint[];
}

/**
 * Royal Mail, within Great Britain: the sandbox leaves this carrier alone (CARRIER_SANDBOX_CARRIERS
 * below), so the tests report its events themselves.
 */
const QUIET = {
  service: { service_code: 'RM-TRACKED48' },
  shipper_address: aLabelAddress({ first_name: 'Charles', last_name: 'Babbage', city: 'Leeds' }),
};

/**
 * Labels and their tracking, end to end: create, read, follow a sandbox parcel to delivery, and
 * the carrier webhook and CLI. The sandbox plays the real carriers on a fast clock, every parcel
 * with a failed first attempt.
 */
describe.each(DEPLOYMENT_MODES)('labels and tracking (%s)', (_mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;

  beforeAll(async () => {
    deployment = await start({
      env: {
        CARRIER_SANDBOX_STEP_MS: '150',
        CARRIER_SANDBOX_SCENARIOS: 'failed_attempt',
        CARRIER_SANDBOX_CARRIERS: 'DHL,UPS,USPS,DPD',
      },
    });
    api = deployment.client;
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  const createLabel = async (overrides: Record<string, unknown> = {}) => {
    const created = await api.post<number>('/2026-05/cloud/label', aLabel(overrides));
    expect(created.body).toMatchObject({ code: 200, message: 'success' });
    return created.body.data!;
  };
  const trackingOf = async (id: number, client = api) =>
    (await client.get<Tracking>(`/2026-05/cloud/label/tracking/${id}`)).body.data!;

  it('creates a label with every field of the spec and returns the record', async () => {
    // In pounds, Royal Mail's currency, so that the price compares with the freight's as it is.
    const body = aLabel({
      ...QUIET,
      currency: 'GBP',
      service: { ...QUIET.service, inco_term: 'DAP' },
    });
    const created = await api.post<number>('/2026-05/cloud/label', body);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ code: 200, message: 'success', data: expect.any(Number) });

    const read = await api.get<Record<string, unknown>>(
      `/2026-05/cloud/label/${created.body.data}`,
    );
    expect(read.status).toBe(200);
    const { created_time: createdTime, ...record } = read.body.data!;
    expect(createdTime).toMatch(ISO_UTC);
    expect(record).toEqual({
      id: created.body.data,
      // The public tracking page (docs/webhooks.md): a link of the gateway, no API key needed.
      tracking_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/track\/l1-/),
      status: 'information_received',
      reference: body.reference,
      service: body.service,
      shipping_address: body.shipping_address,
      shipper_address: body.shipper_address,
      currency: body.currency,
      weight_unit: body.weight_unit,
      length: body.length,
      width: body.width,
      height: body.height,
      length_unit: body.length_unit,
      expect_pickup_time: body.expect_pickup_time,
      items: body.items,
      package_attributes: body.package_attributes,
      metadata: body.metadata,
      carrier: 'RM',
      price: expect.objectContaining({ currency: 'GBP', inco_term: 'DAP' }),
      tracking_courier: null,
      tracking_number: null,
      delivered_time: null,
      customs_form: null,
      documents: [],
      void: null,
    });

    // The price is rating-service's freight price for the same parcel.
    const freight = await api.put<Record<string, unknown>>('/2025-07/cloud/calculate/freight', {
      origin_country_code: 'GB',
      origin_city: 'Leeds',
      origin_zip_code: 'SW1Y 4JH',
      dest_country_code: 'GB',
      dest_city: 'London',
      dest_zip_code: 'SW1Y 4JH',
      weight: 0.6,
      weight_unit: 'kg',
      dimension: { length: 35, width: 25, height: 10.5, uom: 'cm' },
      service_code: 'RM-TRACKED48',
      inco_term: 'DAP',
    });
    expect(freight.status).toBe(200);
    const {
      carrier_code: _carrier,
      message: _message,
      customs_form: customsForm,
      ...price
    } = freight.body.data!;
    expect(customsForm).toBeNull();
    expect(record.price).toEqual(price);
    expect(price.amount).toBeGreaterThan(0);
  });

  it('refuses a service it does not know (400) or that cannot carry the contents (422)', async () => {
    const unknown = await api.post(
      '/2026-05/cloud/label',
      aLabel({ service: { service_code: 'NO-SUCH-SERVICE' } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 400, data: null });
    expect(unknown.body.message).toContain('service.service_code NO-SUCH-SERVICE');

    const restricted = await api.post(
      '/2026-05/cloud/label',
      aLabel({
        package_attributes: { contains_alcohol: true, contains_battery: true, weight: 0.6 },
      }),
    );
    expect(restricted.status).toBe(422);
    expect(restricted.body).toEqual({
      code: 422,
      message: 'package_attributes.contains_alcohol: DHL-EXPRESS does not carry alcohol',
      data: null,
    });

    // Rating's own refusal: Royal Mail Tracked 48 does not leave Great Britain.
    const abroad = await api.post(
      '/2026-05/cloud/label',
      aLabel({ ...QUIET, shipping_address: aLabelAddress({ country_code: 'US', city: 'Austin' }) }),
    );
    expect(abroad.status).toBe(422);
    expect(abroad.body.data).toBeNull();
  });

  it('answers a fresh label with explicit nulls and its information_received checkpoint', async () => {
    const id = await createLabel(QUIET);
    const response = await api.get<Tracking>(`/2026-05/cloud/label/tracking/${id}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      tracking_courier: null,
      tracking_number: null,
      outbound_time: null,
      delivered_time: null,
      checkpoints: [
        {
          local_time: expect.stringMatching(ISO_UTC),
          details: null,
          description: 'Shipment information received: label created.',
          status: 'information_received',
        },
      ],
    });
  });

  it('answers an unknown label with 404 "Order not found." and a malformed id with 400', async () => {
    const unknown = await api.get('/2026-05/cloud/label/tracking/987654321');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, message: 'Order not found.', data: null });
    expect((await api.get('/2026-05/cloud/label/987654321')).body).toEqual({
      code: 404,
      message: 'Label not found.',
      data: null,
    });
    const malformed = await api.get('/2026-05/cloud/label/tracking/12abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('id');
  });

  it('refuses an invalid label with 400 naming each field, and creates nothing', async () => {
    const response = await api.post(
      '/2026-05/cloud/label',
      aLabel({
        reference: 'r'.repeat(65),
        currency: 'eur',
        weight_unit: 'stone',
        length_unit: undefined,
        items: [],
        // Two missing address fields: with the five above, within the ten problems a message names.
        shipping_address: { ...aLabelAddress(), last_name: undefined, country_code: undefined },
      }),
    );
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 400, data: null });
    for (const field of [
      'reference',
      'currency',
      'weight_unit',
      'length_unit',
      'items',
      'shipping_address.last_name',
      'shipping_address.country_code',
    ])
      expect(response.body.message).toContain(field);
  });

  it('follows a sandbox label through allocation, a failed attempt, and delivery', async () => {
    const id = await createLabel({ service: { service_code: 'DHL-EXPRESS' } });
    const tracking = await eventually(
      () => trackingOf(id),
      (t) => t.delivered_time !== null,
      { timeoutMs: 45_000 },
    );
    expect(tracking.tracking_courier).toBe('DHL');
    expect(tracking.tracking_number).toMatch(/^\d{10}$/);
    expect(tracking.checkpoints.map((c) => c.status)).toEqual([
      'delivered',
      'out_for_delivery',
      'delivery_attempt_failed',
      'out_for_delivery',
      'in_transit',
      'in_transit',
      'in_transit',
      'information_received',
      'information_received',
    ]);
    const times = tracking.checkpoints.map((c) => c.local_time);
    for (const time of times) expect(time).toMatch(ISO_UTC);
    expect([...times].sort().reverse()).toEqual(times);
    expect(tracking.delivered_time).toBe(times[0]);
    expect(tracking.outbound_time).toBe(times[6]);
    expect(tracking.checkpoints[0]).toMatchObject({
      description: 'Delivered',
      details: 'Berlin - Germany',
    });
    const record = await api.get<{ status: string; tracking_number: string }>(
      `/2026-05/cloud/label/${id}`,
    );
    expect(record.body.data).toMatchObject({
      status: 'delivered',
      tracking_number: tracking.tracking_number,
    });
  });

  it('follows an order from its shipment to Completed, one tracking object per shipment', async () => {
    const operator = await deployment.createOperatorKey();
    const ok = async <T>(response: Promise<{ status: number; body: { data: T | null } }>) => {
      const { status, body } = await response;
      expect({ status, body }).toMatchObject({ status: 200 });
      return body.data as T;
    };
    const productId = await ok<number>(
      api.post('/2025-07/cloud/product', aProduct({ variants: [aVariant()] })),
    );
    const [variant] = (
      await ok<{ variants: { id: number; sku: string }[] }>(
        api.get(`/2025-07/cloud/product/${productId}`),
      )
    ).variants;
    const inboundId = await ok<number>(
      api.post('/2025-07/cloud/inbound', anInbound([{ sku_number: variant.sku, quantity: 5 }])),
    );
    await ok(
      operator.post(`/2025-07/cloud/inbound/${inboundId}/receipt`, {
        items: [{ sku_number: variant.sku, quantity: 5 }],
        complete: true,
      }),
    );
    const orderStatus = async (id: number) =>
      (await ok<{ status: string }>(api.get(`/2025-07/cloud/order/${id}`))).status;
    // The receipt reaches the stock asynchronously: order once it has (else the order holds).
    const orderId = (await eventually(
      async () => {
        const id = await ok<number>(
          api.post('/2025-07/cloud/order', anOrder([{ sku_number: variant.sku, quantity: 2 }])),
        );
        const status = await eventually(
          () => orderStatus(id),
          (s) => s !== 'Draft',
        );
        return status === 'Approved' ? id : undefined;
      },
      (id) => id !== undefined,
    )) as number;

    // Not shipped yet: no tracking; an unknown order is a 404.
    expect((await api.get(`/2025-07/cloud/order/tracking/${orderId}`)).body).toEqual({
      code: 200,
      message: 'success',
      data: [],
    });
    const unknown = await api.get('/2025-07/cloud/order/tracking/987654321');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 404, data: null });

    await ok(operator.post(`/2025-07/cloud/order/${orderId}/pick`));
    const trackingNumber = `JD${Date.now()}`.slice(0, 12);
    const shipped = await ok<{ status: string }>(
      operator.post(`/2025-07/cloud/order/${orderId}/ship`, {
        carrier: 'DHL',
        tracking_number: trackingNumber,
        packages: 1,
      }),
    );
    expect(shipped.status).toBe('Fulfilled');

    const [tracking] = await eventually(
      async () =>
        (await api.get<OrderTracking[]>(`/2025-07/cloud/order/tracking/${orderId}`)).body.data!,
      (list) => list.length === 1 && list[0].delivered_time !== null,
      { timeoutMs: 45_000 },
    );
    expect(tracking).toMatchObject({ tracking_courier: 'DHL', tracking_number: trackingNumber });
    expect(tracking.outbound_time).toMatch(ISO_UTC);
    expect(tracking.delivered_time).toMatch(ISO_UTC);
    expect(tracking.checkpoints.map((c) => c.status)).toEqual([
      'delivered',
      'out_for_delivery',
      'delivery_attempt_failed',
      'out_for_delivery',
      'transit',
      'transit',
      'transit',
      'information_received',
      'information_received',
    ]);
    for (const checkpoint of tracking.checkpoints) expect(checkpoint.local_time).toMatch(PLAIN_UTC);
    const times = tracking.checkpoints.map((c) => c.local_time);
    expect([...times].sort().reverse()).toEqual(times);
    expect(tracking.delivered_time!.replace('T', ' ').slice(0, 19)).toBe(times[0]);

    await eventually(
      () => orderStatus(orderId),
      (status) => status === 'Completed',
    );
  });

  it('hides one merchant’s labels from another (404 "Order not found.")', async () => {
    const id = await createLabel(QUIET);
    const other = await deployment.createMerchant('Label neighbour');
    expect((await other.get(`/2026-05/cloud/label/tracking/${id}`)).body).toEqual({
      code: 404,
      message: 'Order not found.',
      data: null,
    });
    expect((await other.get(`/2026-05/cloud/label/${id}`)).status).toBe(404);
  });

  describe('the carrier webhook', () => {
    let carrier: ApiClient;

    beforeAll(async () => {
      carrier = await deployment.createCarrierKey('RM');
    }, 60_000);

    it('records a batch once persisted: allocation, out of order, duplicates, by tracking number', async () => {
      const id = await createLabel(QUIET);
      const number = `RM${id}X`;
      const events = [
        {
          label_id: id,
          event_code: 'E00',
          description: 'Shipment information received',
          event_time: local(0, 2),
          allocation: { tracking_courier: 'RM', tracking_number: number },
        },
        {
          tracking_number: number,
          event_code: 'E80',
          description: 'Delivered to the front door',
          location: 'Porto, PT',
          event_time: local(3000, 1),
        },
        {
          tracking_number: number,
          event_code: 'E10',
          description: 'Picked up by courier',
          location: 'Lisboa, PT',
          event_time: local(600, 1),
        },
        {
          label_id: id,
          event_code: 'E10',
          description: 'Picked up by courier',
          location: 'Lisboa, PT',
          event_time: local(600),
        },
        {
          tracking_number: number,
          event_code: 'E99',
          description: 'Status 7',
          event_time: local(1400, -5),
        },
      ];
      const response = await carrier.post('/2026-05/cloud/carrier/RM/events', { events });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        code: 200,
        message: 'success',
        data: { received: 5, recorded: 4, duplicates: 1, unmatched: 0 },
      });
      const tracking = await trackingOf(id);
      expect(tracking).toEqual(
        deliveredTracking(number, [
          { local_time: utc(1400), details: null, description: 'Status 7', status: 'unknown' },
        ]),
      );
      // Sent again, the whole batch is ignored.
      expect(
        (await carrier.post('/2026-05/cloud/carrier/RM/events', { events })).body.data,
      ).toEqual({ received: 5, recorded: 0, duplicates: 5, unmatched: 0 });
    });

    it('keeps an event for a tracking number not allocated yet, and attaches it later', async () => {
      const id = await createLabel(QUIET);
      const number = `RM${id}EARLY`;
      const early = await carrier.post('/2026-05/cloud/carrier/RM/events', {
        events: [
          {
            tracking_number: number,
            event_code: 'E30',
            description: 'Arrived at sort facility',
            event_time: local(120),
          },
        ],
      });
      expect(early.body.data).toEqual({ received: 1, recorded: 0, duplicates: 0, unmatched: 1 });
      await carrier.post('/2026-05/cloud/carrier/RM/events', {
        events: [
          {
            label_id: id,
            event_code: 'E00',
            description: 'Shipment information received',
            event_time: local(60),
            allocation: { tracking_courier: 'RM', tracking_number: number },
          },
        ],
      });
      expect((await trackingOf(id)).checkpoints[0]).toMatchObject({
        description: 'Arrived at sort facility',
        status: 'in_transit',
      });
    });

    it('refuses merchant and admin keys (403), missing or unknown credentials (401), another carrier (403)', async () => {
      const body = {
        events: [
          { label_id: 1, event_code: 'E1', description: 'x', event_time: '2026-05-02T10:00:00Z' },
        ],
      };
      const asMerchant = await api.post('/2026-05/cloud/carrier/RM/events', body);
      expect(asMerchant.status).toBe(403);
      expect(asMerchant.body).toMatchObject({ code: 403, data: null });
      expect(asMerchant.body.message).toMatch(/^A merchant API key may not report carrier events/);
      const asAdmin = await api
        .withKey(deployment.adminKey)
        .post('/2026-05/cloud/carrier/RM/events', body);
      expect(asAdmin.status).toBe(403);
      expect(asAdmin.body.message).toMatch(/^An admin key may not report carrier events/);
      expect(
        (await api.withKey(undefined).post('/2026-05/cloud/carrier/RM/events', body)).status,
      ).toBe(401);
      expect(
        (
          await api
            .withKey('csk_carrier_not_a_real_one')
            .post('/2026-05/cloud/carrier/RM/events', body)
        ).status,
      ).toBe(401);
      const otherCarrier = await carrier.post('/2026-05/cloud/carrier/DHL/events', body);
      expect(otherCarrier.status).toBe(403);
      expect(otherCarrier.body.message).toContain('RM');
      // A carrier credential is not a merchant's key.
      expect((await carrier.get('/2026-05/cloud/label/tracking/1')).status).toBe(401);
    });

    it('hears a carrier on its own labels only: another carrier’s report by label id is unmatched', async () => {
      const id = await createLabel(QUIET);
      const dpd = await deployment.createCarrierKey('DPD');
      const response = await dpd.post('/2026-05/cloud/carrier/DPD/events', {
        events: [
          {
            label_id: id,
            event_code: 'DELIVERED',
            description: 'Delivered',
            event_time: local(60),
            allocation: { tracking_courier: 'DPD', tracking_number: `HIJACK${id}` },
          },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ received: 1, recorded: 0, duplicates: 0, unmatched: 1 });
      const label = (await api.get(`/2026-05/cloud/label/${id}`)).body.data;
      expect(label).toMatchObject({ tracking_courier: null, tracking_number: null });
      expect((await trackingOf(id)).checkpoints).toHaveLength(1);
    });

    it('refuses an invalid batch with 400 naming each event field', async () => {
      const response = await carrier.post('/2026-05/cloud/carrier/RM/events', {
        events: [
          { event_code: 'E1', description: 'x', event_time: '2026-05-02T10:00:00' },
          { label_id: 1, event_code: '', description: 'x', event_time: '2026-05-02T10:00:00Z' },
        ],
      });
      expect(response.status).toBe(400);
      for (const field of ['events[0].label_id', 'events[0].event_time', 'events[1].event_code'])
        expect(response.body.message).toContain(field);
    });

    it('takes a test event from the carrier-event CLI', async () => {
      const id = await createLabel(QUIET);
      const args = [
        join(REPO_ROOT, 'dist/apps/carrier-cli/src/main.js'),
        ...['--carrier', 'RM', '--label', String(id), '--code', 'OUT_FOR_DELIVERY'],
        ...['--text', 'Out for delivery', '--location', 'Porto, PT'],
      ];
      const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
      if (deployment.busEnv) Object.assign(env, deployment.busEnv);
      else args.push('--url', api.baseUrl, '--key', carrier.apiKey as string);
      const { stdout } = await run(process.execPath, args, { cwd: REPO_ROOT, env });
      expect(stdout).toMatch(deployment.busEnv ? /published to carrier\.checkpoint\.v1/ : /^200 /);
      const tracking = await eventually(
        () => trackingOf(id),
        (t) => t.checkpoints[0].status === 'out_for_delivery',
        { timeoutMs: 20_000 },
      );
      expect(tracking.checkpoints[0]).toMatchObject({
        description: 'Out for delivery',
        details: 'Porto, PT',
      });
    });
  });
});
