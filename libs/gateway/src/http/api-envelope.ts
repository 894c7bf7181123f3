import { Type, applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiProperty,
  ApiResponse,
  ApiSchema,
  getSchemaPath,
} from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { INPUT_LIMITS, MAX_ID } from '@consign/contracts';
import { MAX_PATH_PARAM_LENGTH } from './edge-rules';

/**
 * OpenAPI documentation of the common response envelope `{code, message, data}`. These classes
 * only describe JSON for the API document (docs/openapi.json); nothing is validated with them.
 */
@ApiSchema({
  name: 'Envelope',
  description: 'The common response envelope. The HTTP status equals `code`.',
})
export class EnvelopeSchema {
  @ApiProperty({ type: 'integer', description: 'Status code; 200 on success.', example: 200 })
  code!: number;

  @ApiProperty({ description: '`success`, or what went wrong.', example: 'success' })
  message!: string;
}

@ApiSchema({
  name: 'ErrorEnvelope',
  description: 'The envelope of a failure: `message` describes the error and `data` is null.',
})
export class ErrorEnvelopeSchema {
  @ApiProperty({ type: 'integer', description: 'Equals the HTTP status.', example: 400 })
  code!: number;

  @ApiProperty({ description: 'What went wrong.' })
  message!: string;

  @ApiProperty({
    type: 'object',
    properties: {},
    nullable: true,
    enum: [null],
    example: null,
    description: 'Always null on failure.',
  })
  data!: null;
}

/** A Long id (spec notation): a positive JSON integer, at most MAX_ID (2^53 - 1). */
export const LongId: SchemaObject = {
  type: 'integer',
  format: 'int64',
  minimum: 1,
  maximum: MAX_ID,
  example: 1,
};

/** What `data` holds on success: a DTO class, a list of them, Number/String/Boolean, or a schema. */
export type EnvelopeData = Type<unknown> | [Type<unknown>] | SchemaObject;

/** Failures an operation may answer with, and how the API document describes each. */
export const ERROR_RESPONSES = {
  400: {
    description:
      'Validation failed (`message` names each offending field by its API name and the rule ' +
      `broken, at most ${INPUT_LIMITS.listed_problems} of them, then how many more), malformed ` +
      'JSON, a malformed id or URL. Whatever the operation, a string holding NUL or an unpaired ' +
      'UTF-16 surrogate, a string over its maximum length, nesting deeper than ' +
      `${INPUT_LIMITS.depth} levels, an array over ${INPUT_LIMITS.array_items} elements and the ` +
      'keys `__proto__`, `constructor` and `prototype` are refused.',
    example: 'Validation failed: <field> <rule broken>',
  },
  401: {
    description: 'Missing or invalid API key (`Authorization: Bearer <key>`).',
    example: 'Invalid API key.',
  },
  403: {
    description:
      'This key may not use this operation: an admin key outside the admin API, a merchant key on ' +
      "the admin API or the carriers' webhook, or a role the operation does not admit.",
    example: 'This API key may not use this operation.',
  },
  404: {
    description: "Unknown id, or one that belongs to another merchant's account.",
    example: 'Not found.',
  },
  405: {
    description:
      'The path exists, but not with this method: `Allow` lists the methods it answers to.',
    example: 'Method not allowed.',
  },
  409: {
    description:
      'Conflict with existing data or state (e.g. a SKU the merchant already uses, a label not numbered yet).',
    example: 'Conflict.',
  },
  410: {
    description: 'Gone: the resource existed but is no longer valid (a voided label’s documents).',
    example: 'Label 12 was voided: its documents are no longer valid.',
  },
  413: {
    description: 'The request body is over the size limit.',
    example: 'Request body too large.',
  },
  414: {
    description: `A path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters.`,
    example: `URI too long: a path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters.`,
  },
  415: {
    description: 'The request body is not JSON (send `content-type: application/json`).',
    example: 'Unsupported media type: send the body as application/json.',
  },
  422: {
    description:
      'A valid request that cannot be served as asked (e.g. the service cannot carry the contents, or has no zone for the destination).',
    example: 'The service cannot carry batteries.',
  },
  431: {
    description: 'The request headers (the URL included) are over 16 KiB.',
    example:
      'Request header fields too large: the headers, URL included, must total at most 16 KiB.',
  },
  429: {
    description:
      'Too many requests for this API key (or client address without one) in the rate-limit ' +
      'window (`RATE_LIMIT_MAX` per `RATE_LIMIT_WINDOW_MS`); retry after `Retry-After` seconds.',
    example: 'Too many requests: at most 6000 per 1 minute. Retry later.',
  },
  503: {
    description: 'A service or the bus is unavailable; retry after `Retry-After` seconds.',
    example: 'Service unavailable.',
  },
  504: { description: 'A service did not answer in time.', example: 'Service timed out.' },
} as const satisfies Record<number, { description: string; example: string }>;

export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/**
 * Every operation may answer these (403: a key of the wrong kind; 405: the operation's path asked
 * with a method it does not take; 429: the rate limit counts every API request; 431: headers over
 * the limit); 413 and 415 are added when the operation takes a body, 414 when its path has a
 * parameter.
 */
const COMMON_ERRORS: ErrorStatus[] = [400, 401, 403, 404, 405, 429, 431, 503, 504];
const BODY_ERRORS: ErrorStatus[] = [413, 415];
const PATH_PARAM_ERRORS: ErrorStatus[] = [414];

const PRIMITIVES = new Map<unknown, SchemaObject>([
  [Number, { type: 'number' }],
  [String, { type: 'string' }],
  [Boolean, { type: 'boolean' }],
]);

function isClass(value: unknown): value is Type<unknown> {
  return typeof value === 'function';
}

function dataSchema(data: EnvelopeData): {
  schema: SchemaObject | ReferenceObject;
  models: Type<unknown>[];
} {
  if (Array.isArray(data)) {
    const item = dataSchema(data[0]);
    return { schema: { type: 'array', items: item.schema }, models: item.models };
  }
  if (!isClass(data)) return { schema: data, models: [] };
  const primitive = PRIMITIVES.get(data);
  if (primitive) return { schema: { ...primitive }, models: [] };
  return { schema: { $ref: getSchemaPath(data) }, models: [data] };
}

/** What an operation takes, for the failures it may answer (413/415 with a body, 414 with a path parameter). */
export interface OperationInputs {
  body?: boolean;
  pathParams?: boolean;
}

const RETRY_AFTER = {
  'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
};

const ERROR_HEADERS: Partial<Record<ErrorStatus, Record<string, object>>> = {
  405: {
    Allow: { description: 'The methods the path answers to', schema: { type: 'string' } },
  },
  429: RETRY_AFTER,
  503: RETRY_AFTER,
};

function errorResponse(status: ErrorStatus): MethodDecorator {
  const { description, example } = ERROR_RESPONSES[status];
  return ApiResponse({
    status,
    description,
    schema: { $ref: getSchemaPath(ErrorEnvelopeSchema) },
    example: { code: status, message: example, data: null },
    ...(ERROR_HEADERS[status] ? { headers: ERROR_HEADERS[status] } : {}),
  });
}

/**
 * Documents an operation's answers in the envelope: 200 with `data` of the given type (creates
 * included, per the house rules), and the failures with `data` null. For example
 * `@ApiEnvelope(ProductView)`, `@ApiEnvelope([ProductView])`, `@ApiEnvelope(LongId, { errors: [409] })`.
 */
export function ApiEnvelope(
  data: EnvelopeData,
  options: { description?: string; errors?: ErrorStatus[] } & OperationInputs = {},
): MethodDecorator {
  const { schema, models } = dataSchema(data);
  return (target, key, descriptor) => {
    const errors = new Set<ErrorStatus>([
      ...COMMON_ERRORS,
      ...(options.body ? BODY_ERRORS : []),
      ...(options.pathParams ? PATH_PARAM_ERRORS : []),
      ...(options.errors ?? []),
    ]);
    applyDecorators(
      ApiExtraModels(EnvelopeSchema, ErrorEnvelopeSchema, ...models),
      ApiOkResponse({
        description: options.description ?? 'Success: `data` is the result.',
        schema: {
          allOf: [
            { $ref: getSchemaPath(EnvelopeSchema) },
            { type: 'object', required: ['data'], properties: { data: schema } },
          ],
        },
      }),
      ...[...errors].sort((a, b) => a - b).map(errorResponse),
    )(target, key, descriptor);
  };
}

/**
 * Documents the failures (in the envelope) of an operation whose success is not an envelope (a
 * document's bytes, described by its own @ApiResponse): the common ones and `errors`.
 */
export function ApiErrors(
  errors: ErrorStatus[] = [],
  inputs: OperationInputs = {},
): MethodDecorator {
  return (target, key, descriptor) => {
    const all = new Set<ErrorStatus>([
      ...COMMON_ERRORS,
      ...(inputs.body ? BODY_ERRORS : []),
      ...(inputs.pathParams ? PATH_PARAM_ERRORS : []),
      ...errors,
    ]);
    applyDecorators(
      ApiExtraModels(ErrorEnvelopeSchema),
      ...[...all].sort((a, b) => a - b).map(errorResponse),
    )(target, key, descriptor);
  };
}
