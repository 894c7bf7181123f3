import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ORDER_LIMITS } from './order.limits';

/** Carrier service and warehouse chosen for an order (`service`). */
export class OrderServiceDto {
  /** Carrier service code. */
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.service.service_code)
  service_code?: string;

  /** Incoterm, e.g. DAP or DDP. */
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.service.inco_term)
  inco_term?: string;

  /** Code of the warehouse that fulfils the order. */
  @IsOptional()
  @IsString()
  @MaxLength(ORDER_LIMITS.service.warehouse_code)
  warehouse_code?: string;
}
