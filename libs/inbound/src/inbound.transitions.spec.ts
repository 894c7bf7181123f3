import { InboundErrorCode, InboundStatus } from '@consign/contracts';
import { describeTransitionTable } from '@consign/testing/fixtures';
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

describeTransitionTable(
  'inbound transitions',
  { table: INBOUND_TRANSITIONS, canTransition, assertTransition },
  {
    states: STATES,
    specStates: 5,
    actors: ACTORS,
    allowed: ALLOWED,
    code: InboundErrorCode.InvalidTransition,
    refusal: (id, from) => `Inbound order ${id} is ${from}`,
  },
  () => {
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
  },
);
