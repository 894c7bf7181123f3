import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsObject, Min, ValidateNested } from 'class-validator';
import { CreateOrderRequest, HoldOrderRequest, ShipOrderRequest } from '../order';
import { MerchantScoped } from './catalog.commands';
import { MerchantPageQuery } from './page-query';

export class CreateOrderCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateOrderRequest)
  order!: CreateOrderRequest;
}

/** Get, cancel, release and pick name one order of the merchant. */
export class OrderCommand extends MerchantScoped {
  @IsInt()
  @Min(1)
  order_id!: number;
}

export class ListOrdersQuery extends MerchantPageQuery {}

export class HoldOrderCommand extends OrderCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => HoldOrderRequest)
  hold!: HoldOrderRequest;
}

export class ShipOrderCommand extends OrderCommand {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ShipOrderRequest)
  shipment!: ShipOrderRequest;
}
