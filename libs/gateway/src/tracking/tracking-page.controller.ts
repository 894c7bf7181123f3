import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { LabelTopic, OrderTopic } from '@consign/contracts';
import { ApiError } from '../http/api-error';
import { GatewayBus } from '../http/gateway-bus';
import { destinationTimeZone } from './destination-time-zone';
import {
  TrackingPageModel,
  renderNotFoundPage,
  renderTrackingPage,
  renderUnavailablePage,
  statusText,
} from './tracking-page';
import { TrackedRecord, TrackingTokenService } from './tracking-token.service';

/** Where the public tracking pages live (outside the API versions: no key, no envelope). */
export const TRACKING_PAGE_PATH = 'track';

/**
 * The public tracking page of a label or an order, for the merchant's customers: reached by the
 * unguessable `tracking_url` of the record, no API key, server-rendered HTML without script.
 * Shows status, carrier, tracking number, the checkpoints in the destination's local time and
 * the delivery date; never a name, address or contact detail.
 */
// A page for people, outside the API versions and their envelope: not in the OpenAPI document
// (the README describes it), as /docs and the health endpoints are not.
@ApiExcludeController()
@Controller(TRACKING_PAGE_PATH)
export class TrackingPageController {
  constructor(
    private readonly bus: GatewayBus,
    private readonly tokens: TrackingTokenService,
  ) {}

  @Get(':token')
  async page(
    @Param('token') token: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store');
    const record = this.tokens.parse(token);
    if (!record) {
      reply.status(404);
      return renderNotFoundPage();
    }
    try {
      return renderTrackingPage(await this.model(record, `track-${token.slice(0, 8)}`));
    } catch (error: unknown) {
      if (error instanceof ApiError && error.status === 404) {
        reply.status(404);
        return renderNotFoundPage();
      }
      reply.status(503).header('retry-after', '30');
      return renderUnavailablePage();
    }
  }

  private async model(record: TrackedRecord, correlationId: string): Promise<TrackingPageModel> {
    const context = { key: record.id, correlationId };
    if (record.kind === 'label') {
      const query = { merchant_id: record.merchantId, label_id: record.id };
      const label = await this.bus.call(LabelTopic.Get, query, context);
      const tracking = await this.bus.call(LabelTopic.GetTracking, query, context);
      return {
        subject: 'Parcel',
        status: statusText(label.status),
        timeZone: destinationTimeZone(label.shipping_address?.country_code),
        deliveredTime: tracking.delivered_time,
        shipments: [
          {
            carrier: tracking.tracking_courier,
            trackingNumber: tracking.tracking_number,
            checkpoints: tracking.checkpoints.map((c) => ({
              time: c.local_time,
              description: c.description,
              details: c.details,
              status: c.status,
            })),
          },
        ],
      };
    }
    const query = { merchant_id: record.merchantId, order_id: record.id };
    const order = await this.bus.call(OrderTopic.Get, query, context);
    const shipments = await this.bus.call(LabelTopic.GetOrderTracking, query, context);
    const delivered = shipments.map((s) => s.delivered_time);
    return {
      subject: 'Order',
      status: statusText(order.status),
      timeZone: destinationTimeZone(order.shipping_address?.country_code),
      deliveredTime:
        delivered.length && delivered.every(Boolean) ? (delivered.sort().at(-1) as string) : null,
      shipments: shipments.map((s) => ({
        carrier: s.tracking_courier,
        trackingNumber: s.tracking_number,
        checkpoints: s.checkpoints.map((c) => ({
          // Order tracking keeps the spec's `yyyy-MM-dd HH:mm:ss` (UTC).
          time: `${c.local_time.replace(' ', 'T')}Z`,
          description: c.description,
          details: c.details,
          status: c.status,
        })),
      })),
    };
  }
}
