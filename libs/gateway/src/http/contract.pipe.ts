import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { validateContract, validationMessage } from '@consign/contracts';
import { ApiError } from './api-error';
import { LongId } from './api-envelope';
import type { PathParam } from './route-table';

/**
 * Validates a body or query against its contract class; a failure is a 400 naming each field. A
 * body comes from the gateway's JSON parser (parseJsonBodies), which already refused hostile
 * input; a query is checked here.
 */
@Injectable()
export class ContractPipe<T extends object> implements PipeTransform<unknown, T> {
  constructor(private readonly contract: ClassConstructor<T>) {}

  transform(value: unknown, metadata?: ArgumentMetadata): T {
    const result = validateContract(this.contract, value ?? {}, {
      inputChecked: metadata?.type === 'body',
    });
    if (!result.ok) throw new ApiError(400, validationMessage(result.errors));
    return result.value;
  }
}

/** A route's body validator: a 400 naming each field, else the contract (see ContractPipe). */
export function bodyOf<T extends object>(cls: ClassConstructor<T>): (value: unknown) => T {
  const pipe = new ContractPipe(cls);
  const metadata: ArgumentMetadata = { type: 'body' };
  return (value) => pipe.transform(value, metadata);
}

/** A route's query validator: a 400 naming each field, else the contract. */
export function queryOf<T extends object>(cls: ClassConstructor<T>): (value: unknown) => T {
  const pipe = new ContractPipe(cls);
  const metadata: ArgumentMetadata = { type: 'query' };
  return (value) => pipe.transform(value, metadata);
}

export function contract<T extends object>(cls: ClassConstructor<T>): ContractPipe<T> {
  return new ContractPipe(cls);
}

const LONG_ID = /^[1-9]\d{0,15}$/;

function parseLongId(value: string, name: string): number {
  const id = LONG_ID.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id))
    throw new ApiError(400, `Validation failed: ${name} must be a positive integer id`);
  return id;
}

/** A Long path id: a positive integer within JSON's safe range, else a 400 naming the parameter. */
export class IdPipe implements PipeTransform<string, number> {
  constructor(private readonly name: string) {}

  transform(value: string): number {
    return parseLongId(value, this.name);
  }
}

export function idParam(name: string): IdPipe {
  return new IdPipe(name);
}

/** A route's Long id path parameter (`params: { order_id: longIdParam('The order id.') }`). */
export function longIdParam(description: string): PathParam<number> {
  return {
    parse: parseLongId,
    description,
    schema: LongId,
  };
}
