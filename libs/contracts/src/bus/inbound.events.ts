import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsEnum,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { IsId } from '../common/formats';
import { NestedList } from '../common/nested-list';
import { INPUT_LIMITS } from '../common/input-limits';
import { INBOUND_LIMITS } from '../inbound/inbound.limits';
import { InboundOrderView } from '../inbound/inbound-order-view.dto';
import { InboundStatus } from '../inbound/inbound-status';
import { event } from './definition';
import { ResolvedStockLine } from './stock.events';

/**
 * `inbound.received.v1`: units that arrived at a warehouse with one receipt (only what this
 * receipt added, not the running totals); catalog puts them on hand.
 */
export class InboundReceivedEvent {
  @IsId()
  inbound_id!: number;

  @IsString()
  @IsNotEmpty()
  @MaxLength(INBOUND_LIMITS.warehouse_code)
  warehouse_code!: string;

  @NestedList(() => ResolvedStockLine, ArrayMaxSize(INPUT_LIMITS.array_items), ArrayNotEmpty())
  lines!: ResolvedStockLine[];
}

/**
 * `inbound.status_changed.v1`: an inbound order was created or changed status; it carries the
 * inbound order as the API returns it after the change, for webhooks.
 */
export class InboundStatusChangedEvent {
  @IsId()
  inbound_id!: number;

  /** Null for a new inbound order. */
  @IsOptional()
  @IsEnum(InboundStatus)
  previous_status!: InboundStatus | null;

  @IsEnum(InboundStatus)
  status!: InboundStatus;

  @IsObject()
  inbound!: InboundOrderView;
}

/** inbound-service's domain events. */
export const InboundEvents = {
  Received: event('inbound.received.v1', InboundReceivedEvent),
  StatusChanged: event('inbound.status_changed.v1', InboundStatusChangedEvent),
};
