import type { EventEnvelope, Reply } from '@consign/contracts';

/*
 * The wire shapes around the payloads, as ts-json-schema-generator sees them (it cannot generate a
 * generic type on its own, and names an alias after its target): the generator fills `payload` /
 * `data` per topic.
 */

/** A domain event on the wire: the envelope, any payload. */
export interface WireEventEnvelope extends EventEnvelope<unknown> {
  payload: unknown;
}

/** A successful reply, any data. */
export interface WireReplySuccess extends Extract<Reply<unknown>, { ok: true }> {
  ok: true;
}

/** A refused or failed request: the error travels as data. */
export interface WireReplyFailure extends Extract<Reply<unknown>, { ok: false }> {
  ok: false;
}
