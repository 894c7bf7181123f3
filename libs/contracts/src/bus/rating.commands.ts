import { IsDefined, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { NestedType } from '../common/contract-metadata';
import { IsCurrencyCode } from '../common/formats';
import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  CarrierServiceView,
  FreightCostResultView,
  OrderCostResultView,
  WarehouseView,
} from '../rating';
import { MerchantScoped } from './catalog.commands';
import { command } from './definition';

/** Rate cards are not yet per merchant; the merchant is carried for the key and for audit. */
export class CalculateOrderCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CalculateOrderRequest)
  request!: CalculateOrderRequest;
}

export class CalculateFreightCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CalculateFreightRequest)
  request!: CalculateFreightRequest;

  /**
   * The currency the result is wanted in (a label's `currency`); the service's own when absent.
   * Each charge line is converted with the rate cards' rates and rounded half up to the cent;
   * the amount is the sum of the converted lines.
   */
  @IsOptional()
  @IsCurrencyCode()
  price_currency?: string;
}

export class ListWarehousesQuery extends MerchantScoped {}

export class ListCarrierServicesQuery extends MerchantScoped {}

/** rating-service's request-reply topics (pricing, and the reference data it answers). */
export const RatingCommands = {
  CalculateOrder: command('rating.order.calculate.v1', CalculateOrderCommand, [
    OrderCostResultView,
  ]),
  CalculateFreight: command(
    'rating.freight.calculate.v1',
    CalculateFreightCommand,
    FreightCostResultView,
  ),
  ListWarehouses: command('rating.warehouse.list.v1', ListWarehousesQuery, [WarehouseView]),
  ListServices: command('rating.service.list.v1', ListCarrierServicesQuery, [CarrierServiceView]),
};
