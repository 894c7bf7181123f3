import { OrderErrorCode, OrderStatus } from '@consign/contracts';
import { DomainError } from '@consign/core';

/** Who moves an order: the merchant (API), the stock saga, the warehouse, the carrier. */
export enum OrderActor {
  Merchant = 'merchant',
  Stock = 'stock',
  Warehouse = 'warehouse',
  Carrier = 'carrier',
}

const { Draft, OnHold, Approved, Processing, Fulfilled, Completed, Cancelled } = OrderStatus;
const { Merchant, Stock, Warehouse, Carrier } = OrderActor;

/**
 * The order state machine (ARCHITECTURE.md, "State machines"), as data: from each state, the
 * states it may move to and who may move it there. Draft means "waiting for the stock
 * reservation": a created order, or a released hold asking for stock again.
 */
export const ORDER_TRANSITIONS: Readonly<
  Record<OrderStatus, Readonly<Partial<Record<OrderStatus, readonly OrderActor[]>>>>
> = {
  [Draft]: {
    [Approved]: [Stock], // every line reserved
    [OnHold]: [Stock, Merchant], // a stock problem (with its reason), or the merchant holds it
    [Cancelled]: [Merchant],
  },
  [OnHold]: {
    [Draft]: [Merchant], // released: the reservation is asked for again
    [Cancelled]: [Merchant],
  },
  [Approved]: {
    [Processing]: [Warehouse], // picking started
    [OnHold]: [Merchant],
    [Cancelled]: [Merchant],
  },
  [Processing]: {
    [Fulfilled]: [Warehouse], // shipped with a carrier and tracking number
    [Cancelled]: [Warehouse],
  },
  [Fulfilled]: {
    [Completed]: [Carrier], // delivered
  },
  [Completed]: {},
  [Cancelled]: {},
};

export function canTransition(from: OrderStatus, to: OrderStatus, by: OrderActor): boolean {
  return ORDER_TRANSITIONS[from][to]?.includes(by) ?? false;
}

/** The one check of every order state change: a forbidden one is a 409 naming the current state. */
export function assertTransition(
  orderId: number,
  from: OrderStatus,
  to: OrderStatus,
  by: OrderActor,
): void {
  if (canTransition(from, to, by)) return;
  const allowed = ORDER_TRANSITIONS[from][to];
  throw new DomainError(
    OrderErrorCode.InvalidTransition,
    allowed
      ? `Order ${orderId} is ${from}: only the ${allowed.join(' or ')} can make it ${to}.`
      : `Order ${orderId} is ${from}: it cannot become ${to}.`,
  );
}
