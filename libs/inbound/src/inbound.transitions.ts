import { InboundErrorCode, InboundStatus } from '@consign/contracts';
import { DomainError } from '@consign/core';

/** Who moves an inbound order: the merchant (API) or the warehouse (operators, adapters). */
export enum InboundActor {
  Merchant = 'merchant',
  Warehouse = 'warehouse',
}

const { Pending, Partial, Completed, Cancelled, Failure } = InboundStatus;
const { Merchant, Warehouse } = InboundActor;

/**
 * The inbound state machine (ARCHITECTURE.md, "State machines") as data: from each state, the
 * states it may move to and who may move it there. Partial → Partial is a further receipt that
 * still leaves something to come.
 */
export const INBOUND_TRANSITIONS: Readonly<
  Record<InboundStatus, Readonly<Partial<Record<InboundStatus, readonly InboundActor[]>>>>
> = {
  [Pending]: {
    [Partial]: [Warehouse], // a first receipt short of the expectation
    [Completed]: [Warehouse], // everything arrived (or the warehouse closed the delivery)
    [Cancelled]: [Merchant],
    [Failure]: [Warehouse], // the warehouse rejected the delivery
  },
  [Partial]: {
    [Partial]: [Warehouse],
    [Completed]: [Warehouse],
  },
  [Completed]: {},
  [Cancelled]: {},
  [Failure]: {},
};

export function canTransition(from: InboundStatus, to: InboundStatus, by: InboundActor): boolean {
  return INBOUND_TRANSITIONS[from][to]?.includes(by) ?? false;
}

/** The one check of every inbound state change: a forbidden one is a 409 naming the current state. */
export function assertTransition(
  inboundId: number,
  from: InboundStatus,
  to: InboundStatus,
  by: InboundActor,
): void {
  if (canTransition(from, to, by)) return;
  const allowed = INBOUND_TRANSITIONS[from][to];
  throw new DomainError(
    InboundErrorCode.InvalidTransition,
    allowed
      ? `Inbound order ${inboundId} is ${from}: only the ${allowed.join(' or ')} can make it ${to}.`
      : `Inbound order ${inboundId} is ${from}: it cannot become ${to}.`,
  );
}
