import {
  ApiClient,
  Deployment,
  WEBHOOK_TEST_ENV,
  WebhookReceiver,
  aLabel,
  aLabelAddress,
  anOrder,
  eventually,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

interface Endpoint {
  id: number;
  url: string;
  event_types: string[];
  status: string;
  disabled_reason: string | null;
  secret?: string;
}
interface Delivery {
  id: number;
  webhook_id: string;
  event_type: string;
  sequence: number;
  status: string;
  attempts: number;
  response_code: number | null;
  duration_ms: number | null;
  next_attempt_time: string | null;
  attempt_list: { response_code: number | null; duration_ms: number; error: string | null }[];
}
interface Body {
  type: string;
  timestamp: string;
  sequence: number;
  data: { id: number; status: string };
}

describe.each(DEPLOYMENT_MODES)('webhooks (%s)', (_mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    deployment = await start({ env: WEBHOOK_TEST_ENV });
    api = deployment.client;
  });

  afterAll(async () => {
    await deployment?.stop();
    await receiver.stop();
  });

  const ok = async <T>(response: Promise<{ status: number; body: { data: T | null } }>) => {
    const { status, body } = await response;
    expect({ status, body }).toMatchObject({ status: 200 });
    return body.data as T;
  };
  const register = async (path: string, types = ['order.status_changed']) => {
    const endpoint = await ok<Endpoint>(
      api.post('/2026-05/cloud/webhook', { url: receiver.url(path), event_types: types }),
    );
    receiver.trust(path, endpoint.secret!);
    return endpoint;
  };
  /** An order with an unknown SKU: Draft, then OnHold (two status changes). */
  const newOrder = () =>
    ok<number>(api.post('/2025-07/cloud/order', anOrder([{ sku_number: '999999', quantity: 1 }])));
  /** A domestic GB label with Royal Mail, a carrier the carrier sandbox leaves alone. */
  const newRoyalMailLabel = () =>
    ok<number>(
      api.post(
        '/2026-05/cloud/label',
        aLabel({
          service: { service_code: 'RM-TRACKED48' },
          shipping_address: aLabelAddress({ country_code: 'GB', city: 'Leeds' }),
          shipper_address: aLabelAddress({ city: 'York' }),
        }),
      ),
    );
  const deliveries = (id: number) =>
    ok<{ total: number; list: Delivery[] }>(api.get(`/2026-05/cloud/webhook/${id}/deliveries`));
  const bodiesAt = (path: string, orderId: number) =>
    receiver
      .at(path)
      .map((r) => JSON.parse(r.body) as Body)
      .filter((b) => b.data.id === orderId);

  it('delivers each status change, signed per Standard Webhooks, with a sequence and the order', async () => {
    const endpoint = await register('/orders');
    expect(endpoint.secret).toMatch(/^whsec_/);
    const id = await newOrder();
    await eventually(
      async () => bodiesAt('/orders', id).map((b) => b.data.status),
      (statuses) => statuses.includes('OnHold'),
    );
    for (const request of receiver.at('/orders')) {
      expect(request.verifyError).toBeNull();
      expect(request.headers['webhook-id']).toMatch(/^msg_/);
      expect(request.headers['webhook-timestamp']).toMatch(/^\d+$/);
    }
    const bodies = bodiesAt('/orders', id);
    expect(bodies.map((b) => [b.type, b.data.status])).toEqual([
      ['order.status_changed', 'Draft'],
      ['order.status_changed', 'OnHold'],
    ]);
    expect(bodies[1].sequence).toBeGreaterThan(bodies[0].sequence);
    // The record as GET answers it (which adds the public tracking_url, a link of the gateway).
    const { tracking_url: _link, ...record } = await ok<Record<string, unknown>>(
      api.get(`/2025-07/cloud/order/${id}`),
    );
    expect(bodies[1].data).toEqual(record);
    const listed = await deliveries(endpoint.id);
    expect(listed.list.length).toBeGreaterThanOrEqual(2);
    expect(listed.list[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      response_code: 200,
      next_attempt_time: null,
    });
    // The secret is answered once: lists never show it.
    const all = await ok<Endpoint[]>(api.get('/2026-05/cloud/webhook'));
    expect(all.find((e) => e.id === endpoint.id)).not.toHaveProperty('secret');
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
    const endpoint = await register('/flaky');
    // The first delivery fails five times (503), then succeeds; the rest succeed at once.
    let flaky: string | undefined;
    let failures = 0;
    receiver.answer = (request) => {
      if (request.path !== '/flaky') return { status: 200 };
      flaky ??= request.webhookId;
      if (request.webhookId !== flaky || failures >= 5) return { status: 200 };
      failures++;
      return { status: 503, headers: { 'retry-after': '0' } };
    };
    await newOrder();
    const settled = await eventually(
      () => deliveries(endpoint.id),
      (page) => page.list.length === 2 && page.list.every((d) => d.status === 'delivered'),
    );
    receiver.answer = () => ({ status: 200 });
    const attempts = receiver.at('/flaky').filter((a) => a.webhookId === flaky);
    expect(attempts).toHaveLength(6);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(attempts.every((a) => a.verifyError === null)).toBe(true);
    const retried = settled.list.find((d) => d.webhook_id === flaky)!;
    expect(retried).toMatchObject({ attempts: 6, response_code: 200, next_attempt_time: null });
    expect(retried.attempt_list.map((a) => a.response_code)).toEqual([
      200, 503, 503, 503, 503, 503,
    ]);
    expect(retried.attempt_list[1].error).toMatch(/HTTP 503/);
  });

  it('re-sends a delivery on request, with the same webhook-id', async () => {
    const endpoint = await register('/again');
    await newOrder();
    const page = await eventually(
      () => deliveries(endpoint.id),
      (p) => p.list.length === 2 && p.list.every((d) => d.status === 'delivered'),
    );
    const delivery = page.list[1];
    const before = receiver.at('/again').length;
    const answer = await ok<Delivery>(
      api.post(`/2026-05/cloud/webhook/${endpoint.id}/deliveries/${delivery.id}/retry`),
    );
    expect(answer).toMatchObject({ id: delivery.id, status: 'pending' });
    await eventually(
      async () => receiver.at('/again').slice(before),
      (again) => again.length === 1,
    );
    expect(receiver.at('/again')[before].webhookId).toBe(delivery.webhook_id);
    expect(
      (await api.post(`/2026-05/cloud/webhook/${endpoint.id}/deliveries/999999/retry`)).status,
    ).toBe(404);
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const endpoint = await register('/rotated');
    const rotated = await ok<Endpoint & { previous_secret_expires_time: string }>(
      api.post(`/2026-05/cloud/webhook/${endpoint.id}/rotate`),
    );
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previous_secret_expires_time) - Date.now()).toBeGreaterThan(
      23 * 3_600_000,
    );
    // A receiver still holding the old secret verifies; so does one holding the new.
    receiver.trust('/rotated', endpoint.secret!);
    await newOrder();
    await eventually(
      async () => receiver.at('/rotated'),
      (got) => got.length === 2,
    );
    expect(receiver.at('/rotated').every((r) => r.verifyError === null)).toBe(true);
    receiver.trust('/rotated', rotated.secret!);
    await newOrder();
    await eventually(
      async () => receiver.at('/rotated'),
      (got) => got.length === 4,
    );
    expect(receiver.at('/rotated').every((r) => r.verifyError === null)).toBe(true);
  });

  it('delivers label.tracking_updated with the label tracking as the API answers it', async () => {
    await register('/tracking', ['label.tracking_updated']);
    const carrier = await deployment.createCarrierKey('RM');
    // The carrier sandbox leaves Royal Mail alone, so the test reports its events.
    const label = await newRoyalMailLabel();
    const number = `RM${label}WH`;
    const event = {
      label_id: label,
      event_code: 'E10',
      description: 'Picked up by courier',
      location: 'York, GB',
      event_time: new Date(Date.now() + 3_600_000).toISOString(),
      allocation: { tracking_courier: 'RM', tracking_number: number },
    };
    expect(
      (await carrier.post('/2026-05/cloud/carrier/RM/events', { events: [event] })).status,
    ).toBe(200);
    const [delivered] = await eventually(
      async () =>
        receiver
          .at('/tracking')
          .map((r) => JSON.parse(r.body) as { type: string; data: { label_id: number } })
          .filter((b) => b.data.label_id === label),
      (bodies) => bodies.length >= 1,
    );
    expect(delivered.type).toBe('label.tracking_updated');
    expect(delivered.data).toEqual({
      label_id: label,
      ...(await ok<object>(api.get(`/2026-05/cloud/label/tracking/${label}`))),
    });
    expect(receiver.at('/tracking').every((r) => r.verifyError === null)).toBe(true);
  });

  it('delivers label.voided with the voided label as the API answers it', async () => {
    await register('/voids', ['label.voided']);
    // The carrier sandbox never scans Royal Mail, so it can be voided.
    const label = await newRoyalMailLabel();
    const voided = await ok<{ status: string; void: object | null }>(
      api.post(`/2026-05/cloud/label/${label}/void`),
    );
    expect(voided.status).toBe('voided');
    const bodies = await eventually(
      async () =>
        receiver
          .at('/voids')
          .map((r) => JSON.parse(r.body) as { type: string; data: { id: number } })
          .filter((b) => b.data.id === label),
      (found) => found.length >= 1,
    );
    expect(bodies).toHaveLength(1);
    expect(bodies[0].type).toBe('label.voided');
    // The record as GET answers it, less the public tracking_url (a link of the gateway).
    const { tracking_url: _link, ...record } = await ok<Record<string, unknown>>(
      api.get(`/2026-05/cloud/label/${label}`),
    );
    expect(bodies[0].data).toEqual(record);
    expect(receiver.at('/voids').every((r) => r.verifyError === null)).toBe(true);
  });

  it('refuses unsafe or invalid endpoints with a 400 and unknown ids with a 404', async () => {
    const before = (await ok<Endpoint[]>(api.get('/2026-05/cloud/webhook'))).length;
    for (const body of [
      { url: 'https://169.254.169.254/latest/meta-data', event_types: ['order.status_changed'] },
      { url: 'https://10.1.2.3/hook', event_types: ['order.status_changed'] },
      { url: 'ftp://example.com/hook', event_types: ['order.status_changed'] },
      { url: 'https://example.com/hook', event_types: ['order.exploded'] },
      { url: 'https://example.com/hook', event_types: [] },
    ]) {
      const { status, body: answer } = await api.post('/2026-05/cloud/webhook', body);
      expect({ status, code: (answer as { code: number }).code }).toEqual({
        status: 400,
        code: 400,
      });
    }
    expect((await ok<Endpoint[]>(api.get('/2026-05/cloud/webhook'))).length).toBe(before);
    expect((await api.request('DELETE', '/2026-05/cloud/webhook/999999')).status).toBe(404);
    expect((await api.post('/2026-05/cloud/webhook/999999/rotate')).status).toBe(404);
    expect((await api.get('/2026-05/cloud/webhook/999999/deliveries')).status).toBe(404);
  });

  it('keeps merchants apart, and deleting an endpoint stops its deliveries', async () => {
    const endpoint = await register('/deleted');
    const other = await deployment.createMerchant('Webhook other');
    expect((await other.request('DELETE', `/2026-05/cloud/webhook/${endpoint.id}`)).status).toBe(
      404,
    );
    expect((await other.get(`/2026-05/cloud/webhook/${endpoint.id}/deliveries`)).status).toBe(404);
    expect(await ok<Endpoint[]>(other.get('/2026-05/cloud/webhook'))).toEqual([]);
    const removed = await ok<Endpoint>(
      api.request('DELETE', `/2026-05/cloud/webhook/${endpoint.id}`),
    );
    expect(removed.id).toBe(endpoint.id);
    const id = await newOrder();
    // Another endpoint hears of the order: by then the deleted one would have too.
    await eventually(
      async () => bodiesAt('/orders', id).map((b) => b.data.status),
      (statuses) => statuses.includes('OnHold'),
    );
    expect(bodiesAt('/deleted', id)).toEqual([]);
  });
});
