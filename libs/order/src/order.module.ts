import { Module } from '@nestjs/common';
import { loadConfigOf } from '@consign/config';
import { orderDatabase } from './order.database';
import { OrderHandlers } from './order.handlers';
import { OrderLifecycle } from './order-lifecycle.service';
import { OrderService } from './order.service';
import { OrderConfig } from './order.config';
import { ReservationWatchdog } from './reservation-watchdog';
import { RatingClientModule } from '@consign/rating-client';
import { OrderRepository } from './order.repository';

/** order-service: customer orders and their state machine; the order side of the stock saga. */
@Module({
  imports: [orderDatabase.module, RatingClientModule],
  controllers: [OrderHandlers],
  providers: [
    OrderService,
    OrderLifecycle,
    ReservationWatchdog,
    OrderRepository,
    { provide: OrderConfig, useFactory: () => loadConfigOf(OrderConfig) },
  ],
  exports: [OrderService, OrderLifecycle],
})
export class OrderModule {}
