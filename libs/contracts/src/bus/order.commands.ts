import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsDefined,
  IsObject,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../common/formats';
import { NestedType } from '../common/contract-metadata';
import {
  CreateOrderRequest,
  HoldOrderRequest,
  OrderPageView,
  OrderStatus,
  OrderView,
  ShipOrderRequest,
} from '../order';
import { MerchantScoped } from './catalog.commands';
import { command } from './definition';
import { MerchantPageQuery } from './page-query';

export class CreateOrderCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => CreateOrderRequest)
  order!: CreateOrderRequest;
}

/** Get, cancel, release and pick name one order of the merchant. */
export class OrderCommand extends MerchantScoped {
  @IsId()
  order_id!: number;
}

export class ListOrdersQuery extends MerchantPageQuery {}

export class HoldOrderCommand extends OrderCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => HoldOrderRequest)
  hold!: HoldOrderRequest;
}

export class ShipOrderCommand extends OrderCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @NestedType(() => ShipOrderRequest)
  shipment!: ShipOrderRequest;
}

/** Most orders one `order.states.v1` query asks about. */
export const ORDER_STATES_MAX = 1000;

/**
 * The states of these orders of the merchant (stock reconciliation asks it of order-service).
 * Orders the merchant does not have are left out of the reply.
 */
export class OrderStatesQuery extends MerchantScoped {
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(ORDER_STATES_MAX)
  @IsId({ each: true })
  order_ids!: number[];
}

export class OrderStateView {
  order_id!: number;
  status!: OrderStatus;
}

/** order-service's request-reply topics. */
export const OrderCommands = {
  Create: command('order.create.v1', CreateOrderCommand, Number, { idempotent: true }),
  Get: command('order.get.v1', OrderCommand, OrderView),
  List: command('order.list.v1', ListOrdersQuery, OrderPageView),
  Cancel: command('order.cancel.v1', OrderCommand, OrderView, { idempotent: true }),
  Hold: command('order.hold.v1', HoldOrderCommand, OrderView, { idempotent: true }),
  Release: command('order.release.v1', OrderCommand, OrderView, { idempotent: true }),
  Pick: command('order.pick.v1', OrderCommand, OrderView, { idempotent: true }),
  Ship: command('order.ship.v1', ShipOrderCommand, OrderView, { idempotent: true }),
  States: command('order.states.v1', OrderStatesQuery, [OrderStateView]),
};
