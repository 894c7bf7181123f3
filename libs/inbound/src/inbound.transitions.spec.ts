import { InboundErrorCode, InboundStatus } from '@consign/contracts';
import { DomainError } from '@consign/core';
import {
  INBOUND_TRANSITIONS,
  InboundActor,
  assertTransition,
  canTransition,
} from './inbound.transitions';

const STATES = Object.values(InboundStatus);
const ACTORS = Object.values(InboundActor);
const { Pending, Partial, Completed, Cancelled, Failure } = InboundStatus;
const { Merchant, Warehouse } = InboundActor;

/** The allowed moves, written out once more by hand: the table must say exactly this. */
const ALLOWED: [InboundStatus, InboundStatus, InboundActor][] = [
  [Pending, Partial, Warehouse],
  [Pending, Completed, Warehouse],
  [Pending, Cancelled, Merchant],
  [Pending, Failure, Warehouse],
  [Partial, Partial, Warehouse],
  [Partial, Completed, Warehouse],
];
const isAllowed = (from: InboundStatus, to: InboundStatus, by: InboundActor) =>
  ALLOWED.some(([f, t, a]) => f === from && t === to && a === by);
const ALL = STATES.flatMap((from) =>
  STATES.flatMap((to) =>
    ACTORS.map((by): [InboundStatus, InboundStatus, InboundActor] => [from, to, by]),
  ),
);

describe('inbound transitions', () => {
  it('has a row for each of the five spec states', () => {
    expect(Object.keys(INBOUND_TRANSITIONS).sort()).toEqual([...STATES].sort());
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
        assertTransition(9, from, to, by);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: InboundErrorCode.InvalidTransition });
      expect((error as DomainError).message).toContain(`Inbound order 9 is ${from}`);
    },
  );

  it('cancels from Pending only', () => {
    expect(STATES.filter((from) => canTransition(from, Cancelled, Merchant))).toEqual([Pending]);
    expect(() => assertTransition(3, Partial, Cancelled, Merchant)).toThrow(
      'Inbound order 3 is Partial: it cannot become Cancelled.',
    );
  });

  it('has terminal states', () => {
    for (const state of [Completed, Cancelled, Failure])
      expect(INBOUND_TRANSITIONS[state]).toEqual({});
  });
});
