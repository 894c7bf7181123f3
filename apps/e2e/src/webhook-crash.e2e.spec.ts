import {
  ApiClient,
  Deployment,
  WEBHOOK_TEST_ENV,
  WebhookReceiver,
  anOrder,
  eventually,
} from '@consign/testing';
import { DEPLOYMENT_MODES } from './deployment-modes';

const ORDERS = 500;
const EVENTS = ORDERS * 2;

// The dispatcher is its own process only in the distributed deployment: that is where it can be
// killed alone (in the standalone, everything dies with it and the same table-backed queue
// resumes at the next start).
const distributed = DEPLOYMENT_MODES.filter(([mode]) => mode === 'distributed');

describe.each(distributed)('webhook-dispatcher SIGKILLed during a burst (%s)', (_mode, start) => {
  let deployment: Deployment;
  let api: ApiClient;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await receiver.start();
    deployment = await start({ env: WEBHOOK_TEST_ENV });
    api = deployment.client;
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
    await receiver.stop();
  });

  it(`loses none of ${EVENTS} events; a receiver sees duplicates only, by webhook-id`, async () => {
    const created = await api.post<{ id: number; secret: string }>('/2026-05/cloud/webhook', {
      url: receiver.url('/burst'),
      event_types: ['order.status_changed'],
    });
    expect(created.status).toBe(200);
    const endpoint = created.body.data!;
    receiver.trust('/burst', endpoint.secret);
    // The first 100 deliveries are answered; then the receiver hangs, so the dispatcher surely
    // has attempts in flight and deliveries queued when it is killed.
    let answered = 0;
    receiver.answer = () => (answered++ < 100 ? { status: 200 } : { status: 0 });

    const orderIds: number[] = [];
    const queue = Array.from({ length: ORDERS }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (queue.shift() !== undefined) {
          const reply = await api.post<number>(
            '/2025-07/cloud/order',
            anOrder([{ sku_number: '999999', quantity: 1 }]),
          );
          expect(reply.status).toBe(200);
          orderIds.push(reply.body.data!);
        }
      }),
    );
    await eventually(
      async () => receiver.at('/burst').filter((r) => r.status === 0).length,
      (held) => held >= 20,
      { timeoutMs: 60_000 },
    );

    await deployment.restartService!('webhook-dispatcher', 'SIGKILL');
    receiver.answer = () => ({ status: 200 });

    const delivered = () =>
      new Set(
        receiver
          .at('/burst')
          .filter((r) => r.status === 200)
          .map((r) => r.webhookId),
      );
    await eventually(
      async () => delivered().size,
      (count) => count >= EVENTS,
      { timeoutMs: 150_000, intervalMs: 500 },
    );
    const received = receiver.at('/burst');
    expect(received.every((r) => r.verifyError === null)).toBe(true);
    // Every order's two status changes, each under one webhook-id whatever the duplicates.
    const byId = new Map<string, string>();
    for (const r of received) {
      const previous = byId.get(r.webhookId);
      if (previous !== undefined) expect(r.body).toBe(previous);
      byId.set(r.webhookId, r.body);
    }
    expect(byId.size).toBe(EVENTS);
    const statuses = new Map<number, string[]>();
    for (const body of byId.values()) {
      const { data } = JSON.parse(body) as { data: { id: number; status: string } };
      statuses.set(data.id, [...(statuses.get(data.id) ?? []), data.status].sort());
    }
    expect(new Set(statuses.keys())).toEqual(new Set(orderIds));
    for (const list of statuses.values()) expect(list).toEqual(['Draft', 'OnHold']);
    // Some were sent twice: held when the dispatcher died, sent again after its lease ran out.
    expect(received.length).toBeGreaterThan(EVENTS);
    const page = await api.get<{ total: number }>(
      `/2026-05/cloud/webhook/${endpoint.id}/deliveries?size=1`,
    );
    expect(page.body.data!.total).toBe(EVENTS);
  }, 300_000);
});
