import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { WebhookEventType } from '@consign/contracts';
import { DatabaseHost } from '@consign/database';
import { createTestDatabase, eventually, TestDatabase, WebhookReceiver } from '@consign/testing';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookSubscriptions } from './webhook-subscriptions';

const POLL_MS = 200;

describe.each([
  ['shares its database with other replicas', false],
  ['is the only writer of its database (the embedded one)', true],
])('a webhook dispatcher that %s', (_title, exclusive) => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let receiver: WebhookReceiver;
  let dispatcher: WebhookDispatcher;
  let merchant = 0;
  const deliveries = new WebhookDeliveryRepository();

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(webhookDatabase.options);
    receiver = await new WebhookReceiver().start();
  });

  beforeEach(() => {
    merchant++;
    const config = Object.assign(new WebhookConfig(), {
      WEBHOOK_ALLOW_HTTP: true,
      WEBHOOK_ALLOWED_NETWORKS: ['loopback'],
      WEBHOOK_POLL_MS: POLL_MS,
    });
    dispatcher = new WebhookDispatcher(
      dataSource,
      config,
      new WebhookSubscriptions(dataSource, config, new WebhookEndpointRepository()),
      deliveries,
      { exclusive },
    );
    dispatcher.onApplicationBootstrap();
  });

  afterEach(async () => {
    await dispatcher.onApplicationShutdown();
  });

  afterAll(async () => {
    await receiver.stop();
    await host.close();
    await database.drop();
  });

  /**
   * An endpoint on the receiver, and one event queued for it behind the dispatcher's back (no
   * nudge), due `inMs` from now; its path on the receiver.
   */
  async function queued(inMs = 0): Promise<string> {
    const path = `/hooks/${merchant}`;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    receiver.trust(path, secret);
    await dataSource.query(
      `INSERT INTO "webhooks"."webhook_endpoint" (merchant_id, url, event_types, secret, status)
       VALUES ($1, $2, $3, $4, 'enabled')`,
      [merchant, receiver.url(path), [WebhookEventType.OrderStatusChanged], secret],
    );
    await dataSource.transaction(async (manager) => {
      await deliveries.enqueue(manager, [
        {
          merchantId: merchant,
          type: WebhookEventType.OrderStatusChanged,
          webhookId: `msg_dispatcher_${merchant}`,
          occurredAt: new Date().toISOString(),
          data: { merchant },
        },
      ]);
      await manager.query(
        `UPDATE "webhooks"."webhook_delivery" d SET next_attempt_at = now() + make_interval(secs => $2)
         FROM "webhooks"."webhook_endpoint" e WHERE e.id = d.endpoint_id AND e.merchant_id = $1`,
        [merchant, inMs / 1000],
      );
    });
    return path;
  }

  /** Waits `ms` and says whether anything arrived at `path` meanwhile. */
  const arrivesWithin = async (path: string, ms: number): Promise<boolean> => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return receiver.at(path).length > 0;
  };

  it(
    exclusive
      ? 'does not look for deliveries it was not told of, and sends them once nudged'
      : 'finds a delivery another replica queued within its poll',
    async () => {
      const path = await queued();
      // Three polls' time: a polling dispatcher has sent it by then.
      expect(await arrivesWithin(path, 3 * POLL_MS)).toBe(!exclusive);
      dispatcher.nudge();
      await eventually(
        async () => receiver.at(path).length,
        (n) => n > 0,
      );
      expect(receiver.at(path)).toHaveLength(1);
      expect(receiver.at(path)[0].verifyError).toBeNull();
    },
  );

  it('sends a delivery when it falls due, not before, without a nudge at that time', async () => {
    const dueInMs = 1_500;
    const queuedAt = Date.now();
    const path = await queued(dueInMs);
    // The look after this nudge finds nothing due yet; a sole writer then sleeps until it is.
    dispatcher.nudge();
    await eventually(
      async () => receiver.at(path).length,
      (n) => n > 0,
      { timeoutMs: 10_000 },
    );
    expect(receiver.at(path)).toHaveLength(1);
    const sentAfter = receiver.at(path)[0].at - queuedAt;
    expect(sentAfter).toBeGreaterThanOrEqual(dueInMs - 50);
    // Far sooner than the sole writer's 30 s safety look.
    expect(sentAfter).toBeLessThan(dueInMs + 3 * POLL_MS + 1_000);
  });
});
