import { Logger } from '@nestjs/common';
import {
  CommandDefinition,
  CommonErrorCode,
  Reply,
  failure,
  isFinalRefusal,
  success,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { DomainError } from '@consign/core';
import { IncomingCommand, currentCommand, CommandOutcome, metrics } from '@consign/observability';
import { CommandExpiredError, CommandLedger } from './command-ledger';
import { TooDeeplyNestedError, requestFingerprint } from './fingerprint';

const logger = new Logger('CommandHandler');

/** What a use case may answer for a reply of type `R`: a read-only list where `R` is a list. */
export type ReplyAnswer<R> = R extends readonly (infer E)[] ? readonly E[] : R;

/**
 * The body of every request-reply handler: validate the consumed payload against the request
 * class of the command's definition (services do not trust the gateway), run the use case with
 * it, and answer a Reply of the definition's reply type. A DomainError becomes a failed Reply
 * with its code; anything else is a defect, logged and answered as Internal.
 *
 * The handler of an idempotent command (its definition says so: it creates or changes something)
 * passes its service's `ledger`, and is refused without one: a command that carries an id is then
 * carried out once (see CommandLedger) — the use case writes its effect with
 * `ledger.transaction`, a repeat is answered from the record, and a command past its deadline is
 * not started.
 */
export async function handleCommand<
  Request extends object,
  ReplyData,
  Answer extends ReplyAnswer<ReplyData>,
>(
  definition: CommandDefinition<string, Request, ReplyData>,
  payload: unknown,
  useCase: (command: Request) => Promise<Answer>,
  ledger?: CommandLedger,
): Promise<Reply<Answer>> {
  if (definition.idempotent && !ledger) {
    // A wiring defect, not the client's: without its ledger a retried command would run again.
    logger.error(`${definition.topic} is idempotent, but its handler passes no command ledger`);
    return failure(CommonErrorCode.Internal, 'Internal error.');
  }
  const validated = validateContract(definition.request, payload);
  if (!validated.ok)
    return failure(CommonErrorCode.Validation, validationMessage(validated.errors));
  const command = ledger ? currentCommand() : undefined;
  if (!ledger || !command) return run(() => useCase(validated.value));
  return runOnce(ledger, command, payload, () => useCase(validated.value));
}

async function run<R>(work: () => Promise<R>): Promise<Reply<R>> {
  try {
    return success(await work());
  } catch (error: unknown) {
    return failureOf(error);
  }
}

function failureOf(error: unknown): Reply<never> {
  if (error instanceof DomainError) return failure(error.code, error.message);
  logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return failure(CommonErrorCode.Internal, 'Internal error.');
}

async function runOnce<R>(
  ledger: CommandLedger,
  command: IncomingCommand,
  payload: unknown,
  work: () => Promise<R>,
): Promise<Reply<R>> {
  const { reply, outcome } = await carryOutOnce(ledger, command, payload, work);
  metrics().countCommand(command.topic, outcome);
  return reply;
}

async function carryOutOnce<R>(
  ledger: CommandLedger,
  command: IncomingCommand,
  payload: unknown,
  work: () => Promise<R>,
): Promise<{ reply: Reply<R>; outcome: CommandOutcome }> {
  let fingerprint: string;
  try {
    fingerprint = requestFingerprint(command.topic, payload);
  } catch (error: unknown) {
    if (!(error instanceof TooDeeplyNestedError)) throw error;
    return {
      reply: failure(
        CommonErrorCode.Validation,
        `Validation failed: the request is ${error.message}`,
      ),
      outcome: 'failed',
    };
  }
  if (ledger.expired(command)) return recorded(await ledger.expire<R>(command, fingerprint));
  try {
    const { result, recorded: wasRecorded } = await ledger.execute(command, fingerprint, work);
    if (!wasRecorded)
      logger.warn(
        `${command.topic} ran without recording its command id: its use case must write through CommandLedger.transaction`,
      );
    const delayMs = ledger.replyDelayMs(command);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return { reply: success(result), outcome: 'carried_out' };
  } catch (error: unknown) {
    if (error instanceof CommandExpiredError)
      return recorded(await ledger.expire<R>(command, fingerprint));
    // A repeat of a command already carried out fails one way or another (its transaction met the
    // record, or the state it changed no longer allows the change): the record answers it.
    const record = await ledger.find(command.id);
    const answer = record && ledger.answer<R>(record, command, fingerprint);
    if (answer) return recorded(answer);
    const refusal: Reply<R> = failureOf(error);
    // A refusal by the service's rules is the command's answer too: a retry gets it again.
    if (refusal.ok || !isFinalRefusal(refusal.error.code))
      return { reply: refusal, outcome: 'failed' };
    const earlier = await ledger.recordRefusal<R>(command, fingerprint, refusal);
    return earlier ? recorded(earlier) : { reply: refusal, outcome: 'failed' };
  }
}

/**
 * The outcome of an answer that came from the ledger: a recorded reply (a success or a refusal),
 * marked `replayed`; the refusal of a reused id; an expiry.
 */
function recorded<R>(reply: Reply<R>): { reply: Reply<R>; outcome: CommandOutcome } {
  if (!reply.ok && reply.error.code === CommonErrorCode.CommandReused)
    return { reply, outcome: 'reused' };
  if (!reply.ok && reply.error.code === CommonErrorCode.CommandExpired)
    return { reply, outcome: 'expired' };
  return { reply: { ...reply, replayed: true }, outcome: 'repeated' };
}
