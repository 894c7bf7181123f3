import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** A document answered as itself: the bytes, with its content type and file name. */
export interface RawBody {
  contentType: string;
  filename: string;
  bytes: Buffer;
}

/** Answers a route with bytes instead of the envelope. */
export interface RawResponder {
  send(body: RawBody): void;
}

/**
 * Sends the bytes with their content type (HTTP 200). A Buffer payload skips Fastify's
 * serialisation, hence the success-envelope hook too; failures still throw and reach the
 * exception filter, which answers them in the envelope.
 */
export function sendRaw(reply: FastifyReply, body: RawBody): void {
  void reply
    .status(200)
    .header('content-type', body.contentType)
    .header('content-disposition', `inline; filename="${body.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(body.bytes);
}

/**
 * For the few routes that answer bytes rather than an envelope (label documents): a responder
 * bound to the route's reply. Nest's @Res() is not available on @ApiController routes
 * (runApiRoutesDirectly runs them without Nest's router); this is a plain custom parameter
 * decorator, which they support. It hands a responder, not the FastifyReply itself: a reply is
 * thenable (it resolves once sent), so an argument holding it would be awaited before the call.
 */
export const RawReply = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RawResponder => {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return { send: (body) => sendRaw(reply, body) };
  },
);
