import { CommonErrorCode, WEBHOOK_LIMITS, WebhookEventType } from '@consign/contracts';
import { useServiceTestBed } from '@consign/testing';
import { WebhookConfig } from './webhook.config';
import { webhookDatabase } from './webhook.database';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { WebhookSubscriptions } from './webhook-subscriptions';

describe('webhook endpoints', () => {
  const bed = useServiceTestBed(webhookDatabase.options);
  let endpoints: WebhookEndpointService;

  beforeAll(() => {
    const config = new WebhookConfig();
    const rows = new WebhookEndpointRepository();
    endpoints = new WebhookEndpointService(
      bed.dataSource,
      bed.commands,
      config,
      new WebhookSubscriptions(bed.dataSource, config, rows),
      rows,
    );
  });

  it('keeps a merchant within its endpoint limit when many creates come at once', async () => {
    const merchant = 7;
    const limit = WEBHOOK_LIMITS.endpoints;
    const results = await Promise.allSettled(
      Array.from({ length: limit * 2 }, (_, i) =>
        endpoints.create(merchant, {
          url: `https://example.com/hooks/${i}`,
          event_types: [WebhookEventType.OrderStatusChanged],
        }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(limit);
    for (const result of results)
      if (result.status === 'rejected')
        expect(result.reason).toMatchObject({
          code: CommonErrorCode.Conflict,
          message: `A merchant may have at most ${limit} webhook endpoints.`,
        });
    expect(await endpoints.list(merchant)).toHaveLength(limit);
    // Another merchant's limit is its own.
    await expect(
      endpoints.create(merchant + 1, {
        url: 'https://example.com/hooks/other',
        event_types: [WebhookEventType.OrderStatusChanged],
      }),
    ).resolves.toMatchObject({ url: 'https://example.com/hooks/other' });
  });
});
