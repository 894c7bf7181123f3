import {
  ArgumentsHost,
  BadRequestException,
  Catch,
  ExceptionFilter,
  HttpException,
  Logger,
} from '@nestjs/common';
import { errorCodes } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, throwError } from 'rxjs';
import { errorEnvelope } from '@consign/contracts';
import { ApiError } from './api-error';
import { allowedMethods } from './edge-rules';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request.',
  401: 'Missing or invalid API key.',
  403: 'Forbidden.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'Conflict.',
  413: 'Request body too large.',
  415: 'Unsupported media type: send application/json.',
  429: 'Too many requests.',
  500: 'Internal error.',
  503: 'Service unavailable.',
  504: 'Service timed out.',
};

/**
 * Fastify's own errors (body parsing, size limit) reach the filter as HttpExceptions carrying
 * Fastify's message (Nest maps them); they are answered with Consign's wording.
 */
const FASTIFY_MESSAGES = new Map<string, string>([
  [new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message, 'Malformed JSON in request body.'],
  [
    new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY().message,
    'Request body is empty: send a JSON object.',
  ],
  [new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE().message, STATUS_TEXT[413]],
  [new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE().message, STATUS_TEXT[415]],
]);

/** The status and message an error is answered with; anything unrecognised is a 500. */
export function describeError(error: unknown): {
  status: number;
  message: string;
  headers: Record<string, string>;
} {
  if (error instanceof ApiError)
    return { status: error.status, message: error.message, headers: error.headers };
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const text = typeof response === 'string' ? response : undefined;
    const message =
      (text && FASTIFY_MESSAGES.get(text)) ??
      (status === 404 ? 'Not found.' : (STATUS_TEXT[status] ?? text ?? error.message));
    return { status, message, headers: {} };
  }
  return { status: 500, message: STATUS_TEXT[500], headers: {} };
}

/** Every failure, whatever threw it, goes out in the envelope with HTTP status = code. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(error: unknown, host: ArgumentsHost): void | Observable<never> {
    // Bus handlers of a standalone process share the app; their errors are not HTTP responses.
    if (host.getType() !== 'http') return throwError(() => error);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    sendError(reply, request, error, this.logger);
  }
}

/**
 * An error thrown while Fastify handled a request, as Nest's router hands it to the filter: a
 * Fastify error with a status (body too large, bad content type…) becomes an HttpException, and
 * so does a 400 SyntaxError or URIError. The route table's error handler (apiRoutes) maps them
 * the same way, so that its routes answer every failure as Nest's routes do.
 */
export function asHttpError(error: unknown): unknown {
  if (
    (error instanceof SyntaxError || error instanceof URIError) &&
    (error as { status?: unknown }).status === 400
  )
    return new BadRequestException(error.message);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof Error && error.name === 'FastifyError' && typeof status === 'number')
    return new HttpException(error.message, status);
  return error;
}

export function sendError(
  reply: FastifyReply,
  request: FastifyRequest,
  error: unknown,
  logger: Logger,
): void {
  const described = describeError(error);
  const { status, message, headers } =
    described.status === 404 && !(error instanceof ApiError)
      ? (methodNotAllowed(request) ?? described)
      : described;
  if (status >= 500 && !(error instanceof ApiError)) {
    logger.error(
      `${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }
  void reply
    .status(status)
    .headers(headers)
    .header('content-type', 'application/json; charset=utf-8')
    .send(errorEnvelope(status, message));
}

/** A 405 with `Allow` when no route matched but the path answers to other methods. */
function methodNotAllowed(
  request: FastifyRequest,
): { status: number; message: string; headers: Record<string, string> } | undefined {
  const allowed = allowedMethods(request);
  if (allowed.length === 0) return undefined;
  return {
    status: 405,
    message: `Method ${request.method} is not allowed here; this path answers to ${allowed.join(', ')}.`,
    headers: { allow: allowed.join(', ') },
  };
}
