import { CheckpointStatus } from '@consign/contracts';

/** A text rule: a carrier event text matching `pattern` has `status`. */
export interface TextRule {
  pattern: RegExp;
  status: CheckpointStatus;
}

/**
 * A code whose meaning is coarse (UPS reports every problem as type `X`): the text may narrow it
 * to one of `refine` (the generic text rules decide), otherwise it is `status`.
 */
export interface CoarseCode {
  status: CheckpointStatus;
  refine: CheckpointStatus[];
}

/** How one carrier's event codes map to the spec's statuses. Data, not code. */
export interface CarrierEventTable {
  /** The carrier code (as carrier services and events name it). */
  carrier: string;
  name: string;
  /** Where the codes come from, and how complete the table is. */
  source: string;
  /** Event code (upper-cased, trimmed) to status. */
  codes: Record<string, CheckpointStatus | CoarseCode>;
  /** The carrier's own wording, tried before the generic rules when no code matches. */
  text?: TextRule[];
}
