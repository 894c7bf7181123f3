import { ORDER_COST_RESULT_LIMITS, RatingErrorCode } from '@consign/contracts';

/** Why a service cannot carry a parcel, or why a calculation cannot be made at all. */
export interface Refusal {
  code: RatingErrorCode;
  message: string;
}

export function refusal(code: RatingErrorCode, message: string): Refusal {
  return { code, message: message.slice(0, ORDER_COST_RESULT_LIMITS.message) };
}

/** A result or the reason there is none. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export function refused<T>(code: RatingErrorCode, message: string): Outcome<T> {
  return { ok: false, refusal: refusal(code, message) };
}

/** A whole calculation refused (the engine is pure: the service layer makes it a DomainError). */
export class RatingFailure extends Error {
  constructor(
    readonly code: RatingErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RatingFailure';
  }
}
