import { Injectable } from '@nestjs/common';
import { CarrierServiceView, RatingTopic, WarehouseView } from '@consign/contracts';
import { RouteGroup, forward } from '../http/route-table';

/**
 * Reference data the spec needs but does not show (ARCHITECTURE.md house rules): the warehouse
 * codes and carrier services a merchant may name. Short lists from the rate cards: no paging.
 */
@Injectable()
export class ReferenceDataRoutes implements RouteGroup {
  readonly name = 'ReferenceData';
  readonly tag = 'Reference data';
  readonly prefix = '2025-07/cloud';

  readonly routes = [
    /** Every warehouse, with its address, time zone and fee schedule. */
    forward({
      name: 'warehouses',
      method: 'GET',
      path: 'warehouse',
      summary: 'List warehouses',
      description: 'The warehouse codes a merchant may use.',
      response: { data: [WarehouseView], description: '`data` is every warehouse.' },
      topic: RatingTopic.ListWarehouses,
      request: ({ merchantId }) => ({ merchant_id: merchantId }),
    }),
    /** Every carrier service, with its inco terms, zones, weight breaks and surcharges. */
    forward({
      name: 'services',
      method: 'GET',
      path: 'service',
      summary: 'List carrier services',
      description: 'The services to choose `service_code` from.',
      response: { data: [CarrierServiceView], description: '`data` is every carrier service.' },
      topic: RatingTopic.ListServices,
      request: ({ merchantId }) => ({ merchant_id: merchantId }),
    }),
  ];
}
