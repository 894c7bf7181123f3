import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from '@consign/config';

/** order-service's own settings (read with loadConfigOf; every one has a default). */
export class OrderConfig {
  /**
   * How long a Draft order waits for the stock saga's answer before it asks again (the request
   * or its answer may have been lost: a broker that lost its data, a dead-lettered event).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(86_400_000)
  ORDER_RESERVATION_TIMEOUT_MS = 30_000;

  /** How many times it asks again before the order goes OnHold with the reason. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(100)
  ORDER_RESERVATION_RETRIES = 2;

  /** How often the reservation watchdog looks for Draft orders past their time. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(3_600_000)
  ORDER_RESERVATION_CHECK_MS = 5_000;
}
