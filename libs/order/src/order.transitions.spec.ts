import { OrderErrorCode, OrderStatus } from '@consign/contracts';
import { DomainError } from '@consign/core';
import {
  ORDER_TRANSITIONS,
  OrderActor,
  assertTransition,
  canTransition,
} from './order.transitions';

const STATES = Object.values(OrderStatus);
const ACTORS = Object.values(OrderActor);
const { Draft, OnHold, Approved, Processing, Fulfilled, Completed, Cancelled } = OrderStatus;
const { Merchant, Stock, Warehouse, Carrier } = OrderActor;

/** The allowed moves, written out once more by hand: the table must say exactly this. */
const ALLOWED: [OrderStatus, OrderStatus, OrderActor][] = [
  [Draft, Approved, Stock],
  [Draft, OnHold, Stock],
  [Draft, OnHold, Merchant],
  [Draft, Cancelled, Merchant],
  [OnHold, Draft, Merchant],
  [OnHold, Cancelled, Merchant],
  [Approved, Processing, Warehouse],
  [Approved, OnHold, Merchant],
  [Approved, Cancelled, Merchant],
  [Processing, Fulfilled, Warehouse],
  [Processing, Cancelled, Warehouse],
  [Fulfilled, Completed, Carrier],
];
const isAllowed = (from: OrderStatus, to: OrderStatus, by: OrderActor) =>
  ALLOWED.some(([f, t, a]) => f === from && t === to && a === by);

const ALL = STATES.flatMap((from) =>
  STATES.flatMap((to) =>
    ACTORS.map((by): [OrderStatus, OrderStatus, OrderActor] => [from, to, by]),
  ),
);

describe('order transitions', () => {
  it('has a row for each of the seven spec states', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...STATES].sort());
  });

  it.each(ALLOWED)('allows %s → %s by the %s', (from, to, by) => {
    expect(canTransition(from, to, by)).toBe(true);
    expect(() => assertTransition(1, from, to, by)).not.toThrow();
  });

  it.each(ALL.filter(([from, to, by]) => !isAllowed(from, to, by)))(
    'forbids %s → %s by the %s with a 409 naming the current state',
    (from, to, by) => {
      expect(canTransition(from, to, by)).toBe(false);
      let error: unknown;
      try {
        assertTransition(42, from, to, by);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: OrderErrorCode.InvalidTransition });
      expect((error as DomainError).message).toContain(`Order 42 is ${from}`);
    },
  );

  it('has terminal states: nothing leaves Completed or Cancelled', () => {
    expect(ORDER_TRANSITIONS[Completed]).toEqual({});
    expect(ORDER_TRANSITIONS[Cancelled]).toEqual({});
  });

  it('names who may make a move the caller may not', () => {
    expect(() => assertTransition(7, Processing, Cancelled, Merchant)).toThrow(
      'Order 7 is Processing: only the warehouse can make it Cancelled.',
    );
    expect(() => assertTransition(7, Fulfilled, Cancelled, Merchant)).toThrow(
      'Order 7 is Fulfilled: it cannot become Cancelled.',
    );
  });
});
