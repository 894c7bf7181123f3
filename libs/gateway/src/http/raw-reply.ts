import type { FastifyReply } from 'fastify';

/** A document answered as itself: the bytes, with its content type and file name. */
export interface RawBody {
  contentType: string;
  filename: string;
  bytes: Buffer;
}

/**
 * Sends the bytes with their content type (HTTP 200). A Buffer payload skips Fastify's
 * serialisation, hence the success-envelope hook too; failures still throw and reach the route
 * table's error handler, which answers them in the envelope.
 */
export function sendRaw(reply: FastifyReply, body: RawBody): void {
  void reply
    .status(200)
    .header('content-type', body.contentType)
    .header('content-disposition', `inline; filename="${body.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(body.bytes);
}
