import { Module } from '@nestjs/common';
import { orderDatabase } from './order.database';
import { OrderHandlers } from './order.handlers';
import { OrderLifecycle } from './order-lifecycle.service';
import { OrderService } from './order.service';

/** order-service: customer orders and their state machine; the order side of the stock saga. */
@Module({
  imports: [orderDatabase.module],
  controllers: [OrderHandlers],
  providers: [OrderService, OrderLifecycle],
  exports: [OrderService, OrderLifecycle],
})
export class OrderModule {}
