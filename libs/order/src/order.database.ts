import { serviceDatabase } from '@consign/messaging';
import { CreateOrder1764000000300 } from './migrations/1764000000300-create-order';
import { AddReservationDeadline1764000000310 } from './migrations/1764000000310-add-reservation-deadline';
import { StripeOrderCount1764000000320 } from './migrations/1764000000320-stripe-order-count';

export const ORDER_SCHEMA = 'orders';

/** order-service's schema: orders and their lines (read and written with SQL, see OrderRepository). */
export const orderDatabase = serviceDatabase({
  name: 'order',
  schema: ORDER_SCHEMA,
  entities: [],
  migrations: [
    CreateOrder1764000000300,
    AddReservationDeadline1764000000310,
    StripeOrderCount1764000000320,
  ],
});
