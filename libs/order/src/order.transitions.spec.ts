import { OrderErrorCode, OrderStatus } from '@consign/contracts';
import { describeTransitionTable } from '@consign/testing/fixtures';
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

describeTransitionTable(
  'order transitions',
  { table: ORDER_TRANSITIONS, canTransition, assertTransition },
  {
    states: STATES,
    specStates: 7,
    actors: ACTORS,
    allowed: ALLOWED,
    code: OrderErrorCode.InvalidTransition,
    refusal: (id, from) => `Order ${id} is ${from}`,
  },
  () => {
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
  },
);
