import { Logger } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import {
  CommonErrorCode,
  Reply,
  failure,
  success,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { DomainError } from '../errors/domain-error';
import { IncomingCommand, currentCommand } from '../observability/correlation';
import { CommandExpiredError, CommandLedger } from './command-ledger';
import { TooDeeplyNestedError, requestFingerprint } from './fingerprint';

const logger = new Logger('CommandHandler');

/**
 * The body of every request-reply handler: validate the consumed payload against its contract
 * class (services do not trust the gateway), run the use case, and answer a Reply. A DomainError
 * becomes a failed Reply with its code; anything else is a defect, logged and answered as Internal.
 *
 * A handler of a command that creates or changes something passes its service's `ledger`: a
 * command that carries an id is then carried out once (see CommandLedger) — the use case writes
 * its effect with `ledger.transaction`, a repeat is answered from the record, and a command past
 * its deadline is not started.
 */
export async function handleCommand<C extends object, R>(
  contract: ClassConstructor<C>,
  payload: unknown,
  useCase: (command: C) => Promise<R>,
  ledger?: CommandLedger,
): Promise<Reply<R>> {
  const validated = validateContract(contract, payload);
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
  let fingerprint: string;
  try {
    fingerprint = requestFingerprint(command.topic, payload);
  } catch (error: unknown) {
    if (error instanceof TooDeeplyNestedError)
      return failure(
        CommonErrorCode.Validation,
        `Validation failed: the request is ${error.message}`,
      );
    throw error;
  }
  if (ledger.expired(command)) return ledger.expire(command, fingerprint);
  try {
    const { result, recorded } = await ledger.execute(command, fingerprint, work);
    if (!recorded)
      logger.warn(
        `${command.topic} ran without recording its command id: its use case must write through CommandLedger.transaction`,
      );
    const delayMs = ledger.replyDelayMs(command);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return success(result);
  } catch (error: unknown) {
    if (error instanceof CommandExpiredError) return ledger.expire(command, fingerprint);
    // A repeat of a command already carried out fails one way or another (its transaction met the
    // record, or the state it changed no longer allows the change): the record answers it.
    const record = await ledger.find(command.id);
    const answer = record && ledger.answer<R>(record, command, fingerprint);
    return answer ?? failureOf(error);
  }
}
