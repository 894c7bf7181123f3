import { MerchantScoped } from './catalog.commands';

/**
 * Reference data owned by rating-service (warehouses and carrier services), asked for over
 * request-reply by the services that must check a code a client sent (order-service,
 * inbound-service). Never asked for inside a database transaction.
 */
export const RatingTopic = {
  ListWarehouses: 'rating.warehouse.list.v1',
  ListServices: 'rating.service.list.v1',
} as const;

/** The warehouses a merchant may use. */
export class ListWarehousesQuery extends MerchantScoped {}

/** The carrier services a merchant may choose from. */
export class ListCarrierServicesQuery extends MerchantScoped {}

/** A warehouse, as rating-service answers it. */
export interface WarehouseView {
  code: string;
  name: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
}

/** A carrier service, as rating-service answers it. */
export interface CarrierServiceView {
  service_code: string;
  carrier: string;
  /** The inco terms the service offers, e.g. ["DAP", "DDP"]. */
  inco_terms: string[];
}
