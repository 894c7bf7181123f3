import { IsOptional } from 'class-validator';
import { IsId } from '../common/formats';

/**
 * Compare catalog's live stock reservations with the states of their orders and repair what can
 * be proved: one merchant, or every merchant when `merchant_id` is absent (the scheduled job).
 */
export class ReconcileStockRequest {
  /** The merchant whose reservations to check; every merchant's when absent. */
  @IsOptional()
  @IsId()
  merchant_id?: number;
}

export enum ReconciliationAction {
  Released = 'released',
  Consumed = 'consumed',
  Reported = 'reported',
}

/** One reservation the reconciliation looked at and what it did about it. */
export class ReconciledReservation {
  merchant_id!: number;
  order_id!: number;
  warehouse_code!: string | null;
  /** The order's state at order-service; null when order-service does not know the order. */
  order_status!: string | null;
  /** `released` (order Cancelled), `consumed` (order shipped) or `reported` (cannot be proved). */
  action!: ReconciliationAction;
}

/** A stock row whose `reserved` count disagreed with its live reservations, and was set to them. */
export class RepairedStockCount {
  merchant_id!: number;
  warehouse_code!: string;
  variant_id!: number;
  reserved_before!: number;
  reserved_after!: number;
}

export class StockReconciliationReport {
  /** Live reservations compared with their orders. */
  checked!: number;
  reservations!: ReconciledReservation[];
  counts!: RepairedStockCount[];
}
