import { Injectable } from '@nestjs/common';
import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  FreightCostResultView,
  OrderCostResultView,
  RatingTopic,
} from '@consign/contracts';
import { RouteGroup, forward } from '../http/route-table';

/** Spec endpoints 3 and 4 (docs/pricing.md explains the figures). */
@Injectable()
export class CalculateRoutes implements RouteGroup {
  readonly name = 'Calculate';
  readonly tag = 'Cost calculation';
  readonly prefix = '2025-07/cloud/calculate';

  readonly routes = [
    /**
     * One cost result per candidate origin warehouse, eligible service and inco term; a candidate
     * that cannot be served is an element with its own `code` and `error_code`.
     */
    forward({
      name: 'order',
      method: 'PUT',
      path: 'order',
      summary: 'Calculate order cost',
      description: 'Per candidate origin warehouse and eligible service; see docs/pricing.md.',
      body: CalculateOrderRequest,
      response: {
        data: [OrderCostResultView],
        description:
          '`data` holds one cost result per candidate: successes by `amount` ascending, then the candidates that cannot serve, each with its `error_code`.',
      },
      topic: RatingTopic.CalculateOrder,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, request: body }),
    }),
    /** The price of one service between two addresses, without warehouse fees. */
    forward({
      name: 'freight',
      method: 'PUT',
      path: 'freight',
      summary: 'Calculate freight',
      description: 'One service between two addresses; see docs/pricing.md.',
      body: CalculateFreightRequest,
      response: {
        data: FreightCostResultView,
        description: '`data` is the cost result.',
        errors: [422],
      },
      topic: RatingTopic.CalculateFreight,
      request: ({ merchantId, body }) => ({ merchant_id: merchantId, request: body }),
    }),
  ];
}
