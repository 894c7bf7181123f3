import { Injectable } from '@nestjs/common';
import { CarrierServiceView, RatingTopic, WarehouseView } from '@consign/contracts';
import { GatewayBus } from '../http/gateway-bus';
import { RouteGroup, route } from '../http/route-table';

/**
 * Reference data the spec needs but does not show (ARCHITECTURE.md house rules): the warehouse
 * codes and carrier services a merchant may name. Short lists from the rate cards: no paging.
 */
@Injectable()
export class ReferenceDataRoutes implements RouteGroup {
  readonly name = 'ReferenceData';
  readonly tag = 'Reference data';
  readonly prefix = '2025-07/cloud';

  constructor(private readonly bus: GatewayBus) {}

  readonly routes = [
    /** Every warehouse, with its address, time zone and fee schedule. */
    route({
      name: 'warehouses',
      method: 'GET',
      path: 'warehouse',
      summary: 'List warehouses',
      description: 'The warehouse codes a merchant may use.',
      response: { data: [WarehouseView], description: '`data` is every warehouse.' },
      handle: ({ merchantId, correlationId }): Promise<WarehouseView[]> =>
        this.bus.call(
          RatingTopic.ListWarehouses,
          { merchant_id: merchantId },
          { key: merchantId, correlationId },
        ),
    }),
    /** Every carrier service, with its inco terms, zones, weight breaks and surcharges. */
    route({
      name: 'services',
      method: 'GET',
      path: 'service',
      summary: 'List carrier services',
      description: 'The services to choose `service_code` from.',
      response: { data: [CarrierServiceView], description: '`data` is every carrier service.' },
      handle: ({ merchantId, correlationId }): Promise<CarrierServiceView[]> =>
        this.bus.call(
          RatingTopic.ListServices,
          { merchant_id: merchantId },
          { key: merchantId, correlationId },
        ),
    }),
  ];
}
