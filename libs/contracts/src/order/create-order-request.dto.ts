import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { NestedList } from '../common/nested-list';
import { NestedType, Transformed } from '../common/contract-metadata';
import { INPUT_LIMITS } from '../common/input-limits';
import { OrderAddressDto } from '../common/address.dto';
import { IsDecimal } from '../common/decimal';
import { IsCurrencyCode } from '../common/formats';
import { OrderServiceDto } from './order-service.dto';
import { ORDER_DEFAULTS, ORDER_LIMITS } from './order.limits';
import { SkuItemDto } from './sku-item.dto';

/** Body of POST /2025-07/cloud/order. */
export class CreateOrderRequest {
  /** The customer's address, where the warehouse ships the order. */
  @IsObject()
  @ValidateNested()
  @NestedType(() => OrderAddressDto)
  shipping_address!: OrderAddressDto;

  /** Defaults to the shipping address (see `orderBillingAddress`). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => OrderAddressDto)
  billing_address?: OrderAddressDto;

  /** Merchant's order reference. */
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.reference)
  reference?: string;

  /** ISO 4217 currency code; defaults to USD. */
  @Transformed(({ value }) => value ?? ORDER_DEFAULTS.currency)
  @IsCurrencyCode()
  currency?: string = ORDER_DEFAULTS.currency;

  /** True when the totals include tax; defaults to false. */
  @Transformed(({ value }) => value ?? ORDER_DEFAULTS.totals_include_tax)
  @IsBoolean()
  totals_include_tax?: boolean = ORDER_DEFAULTS.totals_include_tax;

  /** Number(12,2). */
  @IsOptional()
  @IsDecimal()
  @Min(0)
  shipping_cost?: number;

  /**
   * The carrier service and the warehouse. Without a `warehouse_code`, the stock is taken from the
   * first warehouse (by code) that has every line available; with none, the order is OnHold.
   */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @NestedType(() => OrderServiceDto)
  service?: OrderServiceDto;

  /** Order lines; at least one. */
  @NestedList(() => SkuItemDto, ArrayMaxSize(INPUT_LIMITS.array_items), ArrayNotEmpty())
  sku_items!: SkuItemDto[];
}

/** The billing address of an order request: the one given, else the shipping address. */
export function orderBillingAddress(request: CreateOrderRequest): OrderAddressDto {
  return request.billing_address ?? request.shipping_address;
}
