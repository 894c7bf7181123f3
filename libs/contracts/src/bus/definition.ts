import type { ClassConstructor } from 'class-transformer';

/*
 * A bus operation is declared once, as a definition: its topic, the class of what it carries and,
 * for a request, how its reply's data is described. The type maps (CommandMap, EventMap), the
 * topic-name constants, the lists of topics and definitions (topics.ts), the handlers' binding
 * (handleCommand / handleEvent take a definition) and the AsyncAPI document are derived from them.
 */

/** A class whose instances are `T` (what class-transformer and class-validator take). */
export type ClassOf<T> = ClassConstructor<T>;

/** How a reply's data is named at run time: a class, a list of a class (`[Class]`), or `Number` (an id). */
export type ReplyDescriptor = NumberConstructor | readonly [ClassOf<object>] | ClassOf<object>;

/** The type a reply descriptor stands for. */
export type DescribedType<D> = D extends NumberConstructor
  ? number
  : D extends readonly [infer C]
    ? DescribedType<C>[]
    : D extends new (...args: never[]) => infer I
      ? I
      : never;

/** Type-only: carries a definition's reply type (no run-time property of that name exists). */
declare const replyType: unique symbol;

/** A request-reply topic: what is asked (`request`, validated by the handler) and what answers. */
export interface CommandDefinition<
  Topic extends string = string,
  Request extends object = object,
  ReplyData = unknown,
> {
  readonly topic: Topic;
  readonly request: ClassOf<Request>;
  readonly reply: ReplyDescriptor;
  /**
   * It creates or changes something, so it is carried out once per command id: the gateway's
   * routes that send it honour Idempotency-Key and send the request's stamp with it, and its
   * handler keeps a command ledger (handleCommand refuses to run it without one).
   */
  readonly idempotent?: true;
  readonly [replyType]?: ReplyData;
}

/** A domain (or adapter) event topic and the class of its payload. */
export interface EventDefinition<Topic extends string = string, Payload extends object = object> {
  readonly topic: Topic;
  readonly payload: ClassOf<Payload>;
}

/** The request class's instance type of a command definition. */
export type RequestOf<D> =
  D extends CommandDefinition<string, infer Request, unknown> ? Request : never;

/** The reply data type of a command definition. */
export type ReplyOf<D> =
  D extends CommandDefinition<string, object, infer ReplyData> ? ReplyData : never;

/** The payload type of an event definition. */
export type PayloadOf<D> = D extends EventDefinition<string, infer Payload> ? Payload : never;

/**
 * A request-reply topic answered with `reply`: `Number` for the id of what was created, a class,
 * or `[Class]` for a list of it.
 */
export function command<
  const Topic extends string,
  Request extends object,
  const Reply extends ReplyDescriptor,
>(
  topic: Topic,
  request: ClassOf<Request>,
  reply: Reply,
  options: { idempotent?: true } = {},
): CommandDefinition<Topic, Request, DescribedType<Reply>> {
  return options.idempotent
    ? { topic, request, reply, idempotent: true }
    : { topic, request, reply };
}

/** An event topic whose messages carry a `payload` (in an EventEnvelope, for domain events). */
export function event<const Topic extends string, Payload extends object>(
  topic: Topic,
  payload: ClassOf<Payload>,
): EventDefinition<Topic, Payload> {
  return { topic, payload };
}

/** The topic names of a group of definitions, by the same keys: `{ Create: 'order.create.v1', … }`. */
export function topicsOf<const Group extends Record<string, { readonly topic: string }>>(
  group: Group,
): { readonly [K in keyof Group]: Group[K]['topic'] } {
  return Object.fromEntries(
    Object.entries(group).map(([key, definition]) => [key, definition.topic]),
  ) as { readonly [K in keyof Group]: Group[K]['topic'] };
}
