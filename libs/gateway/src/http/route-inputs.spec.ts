import 'reflect-metadata';
import { MAX_ID, ReconcileStockRequest } from '@consign/contracts';
import { ApiError } from './api-error';
import { bodyOf } from './route-inputs';

/** A body whose properties are all optional: what is left to refuse is its shape and its limits. */
const reconcileBody = bodyOf(ReconcileStockRequest);

function refusal(value: unknown): ApiError {
  try {
    reconcileBody(value);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

describe('bodyOf', () => {
  it('takes no body at all as an empty one', () => {
    expect(reconcileBody(undefined)).toEqual({});
    expect(reconcileBody({ merchant_id: 7 })).toEqual({ merchant_id: 7 });
  });

  it('leaves out an optional field given as null, as if it were absent (nullAsAbsent)', () => {
    expect(reconcileBody({ merchant_id: null })).toEqual({});
  });

  it.each([null, [], 1, 'text', true])('refuses the JSON body %j: not an object', (value) => {
    const error = refusal(value);
    expect(error.status).toBe(400);
    expect(error.message).toBe('Validation failed: body must be a JSON object');
  });

  it.each([1e300, MAX_ID + 2])('refuses an id of %d: beyond MAX_ID (2^53 - 1)', (value) => {
    const error = refusal({ merchant_id: value });
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      `Validation failed: merchant_id must not be greater than ${Number.MAX_SAFE_INTEGER}`,
    );
  });

  it('takes the largest id', () => {
    expect(reconcileBody({ merchant_id: MAX_ID })).toEqual({ merchant_id: MAX_ID });
  });
});
