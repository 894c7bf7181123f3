import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '@consign/config';

/** catalog-service's own settings (read with loadConfigOf; every one has a default). */
export class CatalogConfig {
  /** How often stock reservations are reconciled with their orders; 0 turns the schedule off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  STOCK_RECONCILE_INTERVAL_MS = 600_000;

  /**
   * A reservation changed more recently than this is left alone: its saga may still be under way
   * (an order cancelled a moment ago whose cancellation event is on its way).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  STOCK_RECONCILE_SETTLE_MS = 60_000;
}
