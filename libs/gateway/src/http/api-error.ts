import { Reply, httpStatusOf } from '@consign/contracts';

/** An error answered to the client: the status is also the envelope's code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A service's Reply as the HTTP result: the data, or an ApiError with the mapped status. */
export function unwrapReply<T>(reply: Reply<T>): T {
  if (reply.ok) return reply.data;
  const status = httpStatusOf(reply.error.code);
  return throwApiError(status, reply.error.message);
}

function throwApiError(status: number, message: string): never {
  throw new ApiError(status, message, status === 503 ? { 'retry-after': '5' } : {});
}
