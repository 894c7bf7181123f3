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

const logger = new Logger('CommandHandler');

/**
 * The body of every request-reply handler: validate the consumed payload against its contract
 * class (services do not trust the gateway), run the use case, and answer a Reply. A DomainError
 * becomes a failed Reply with its code; anything else is a defect, logged and answered as Internal.
 */
export async function handleCommand<C extends object, R>(
  contract: ClassConstructor<C>,
  payload: unknown,
  useCase: (command: C) => Promise<R>,
): Promise<Reply<R>> {
  const validated = validateContract(contract, payload);
  if (!validated.ok)
    return failure(CommonErrorCode.Validation, validationMessage(validated.errors));
  try {
    return success(await useCase(validated.value));
  } catch (error: unknown) {
    if (error instanceof DomainError) return failure(error.code, error.message);
    logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return failure(CommonErrorCode.Internal, 'Internal error.');
  }
}
