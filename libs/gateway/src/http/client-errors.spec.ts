import { connect } from 'node:net';
import Fastify, { FastifyInstance } from 'fastify';
import { answerClientError } from './client-errors';

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error) => (answer ? resolve(answer) : reject(error)));
    socket.write(request);
  });
}

function envelopeOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

describe('answerClientError', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({ clientErrorHandler: answerClientError });
    app.get('/ok', () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });

  afterAll(() => app.close());

  it('answers a 64 KiB header with 431 in the envelope', async () => {
    const answer = await raw(
      port,
      `GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(envelopeOf(answer)).toEqual({
      code: 431,
      message: expect.stringMatching(/header fields too large/i),
      data: null,
    });
  });

  it('answers a malformed request with 400 in the envelope', async () => {
    const answer = await raw(port, 'GET /ok HTTP/1.1\r\nBad Header Line\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(envelopeOf(answer)).toEqual({
      code: 400,
      message: expect.stringMatching(/malformed/),
      data: null,
    });
  });
});
