import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { CalculateFreightRequest, CalculateOrderRequest } from '../rating';
import { MerchantScoped } from './catalog.commands';

/** Rate cards are not yet per merchant; the merchant is carried for the key and for audit. */
export class CalculateOrderCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CalculateOrderRequest)
  request!: CalculateOrderRequest;
}

export class CalculateFreightCommand extends MerchantScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CalculateFreightRequest)
  request!: CalculateFreightRequest;
}

export class ListWarehousesQuery extends MerchantScoped {}

export class ListCarrierServicesQuery extends MerchantScoped {}
