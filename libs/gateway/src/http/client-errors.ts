import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope } from '@consign/contracts';

/** What Node's HTTP parser refused before any route ran, answered in the envelope. */
function describe(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        message:
          'Request header fields too large: the headers, URL included, must total at most 16 KiB.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'Request timeout: the request was not received in time.' };
    default:
      return { status: 400, message: 'Bad request: the HTTP request is malformed.' };
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (headers over
 * `maxHeaderSize`, 16 KiB by default: 431; a malformed request line or header: 400; too slow:
 * 408) never reaches Fastify's routing, hooks or error handler, and Fastify's default answer is
 * its own JSON, not the envelope. This writes the envelope on the raw socket, as Node's and
 * Fastify's handlers do (the parser's state is lost: the connection closes after it).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = describe(error.code);
  const body = JSON.stringify(errorEnvelope(status, message));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  socket.destroy(error);
}
