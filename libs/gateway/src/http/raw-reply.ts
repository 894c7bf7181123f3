import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/**
 * The route's Fastify reply, for the few routes that answer bytes rather than an envelope (label
 * documents). Nest's @Res() is not available on @ApiController routes (runApiRoutesDirectly runs
 * them without Nest's router); this is a plain custom parameter decorator, which they support.
 */
export const RawReply = createParamDecorator(
  (_data: unknown, context: ExecutionContext): FastifyReply =>
    context.switchToHttp().getResponse<FastifyReply>(),
);

/** A document answered as itself: the bytes, with its content type and file name. */
export interface RawBody {
  contentType: string;
  filename: string;
  bytes: Buffer;
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
