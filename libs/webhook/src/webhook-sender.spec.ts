import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { AddressPolicy } from './address-policy';
import { MAX_RESPONSE_BYTES, WebhookSender } from './webhook-sender';
import { newSigningSecret, signedHeaders } from './webhook-signer';

describe('WebhookSender', () => {
  let server: Server;
  let base: string;
  let handle: (request: IncomingMessage, response: ServerResponse, body: string) => void;
  const sender = new WebhookSender(new AddressPolicy(['loopback']), 500);

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => handle(request, response, body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts a body the standardwebhooks library verifies, with both secrets during a rotation', async () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    const body = JSON.stringify({ type: 'order.status_changed', data: { id: 1 } });
    let seen: { headers: IncomingMessage['headers']; body: string } | undefined;
    handle = (request, response, received) => {
      seen = { headers: request.headers, body: received };
      response.end('ok');
    };
    const headers = signedHeaders('msg_1', new Date(), body, [current, previous]);
    const outcome = await sender.send(`${base}/hook`, headers, body);
    expect(outcome).toMatchObject({ status: 200, error: null });
    const received = seen!.headers as Record<string, string>;
    expect(new Webhook(current).verify(seen!.body, received)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(seen!.body, received)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(seen!.body, received)).toThrow();
  });

  it('does not follow a redirect: the attempt failed', async () => {
    handle = (_request, response) => {
      response.writeHead(302, { location: `${base}/elsewhere` }).end();
    };
    expect(await sender.send(`${base}/hook`, {}, '{}')).toMatchObject({
      status: 302,
      error: 'HTTP 302',
    });
  });

  it('reads a few KB of an answer at most, and keeps Retry-After', async () => {
    handle = (_request, response) => {
      response.writeHead(503, { 'retry-after': '7' });
      // Far more than is read; the sender hangs up after MAX_RESPONSE_BYTES.
      response.write('x'.repeat(MAX_RESPONSE_BYTES * 4));
      setTimeout(() => response.end('y'.repeat(10_000_000)), 200).unref();
    };
    const outcome = await sender.send(`${base}/hook`, {}, '{}');
    expect(outcome).toMatchObject({ status: 503, retryAfterMs: 7_000 });
    expect(outcome.error!.length).toBeLessThan(300);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    handle = () => undefined;
    const outcome = await sender.send(`${base}/hook`, {}, '{}');
    expect(outcome.status).toBeNull();
    expect(outcome.error).toMatch(/no answer within 500 ms/);
  });

  it('refuses a guarded address, literal or resolved, without connecting', async () => {
    const strict = new WebhookSender(new AddressPolicy([]), 500);
    let called = false;
    handle = (_request, response) => {
      called = true;
      response.end();
    };
    const port = (server.address() as AddressInfo).port;
    expect((await strict.send(`${base}/hook`, {}, '{}')).error).toMatch(/refused/);
    expect((await strict.send(`http://localhost:${port}/hook`, {}, '{}')).error).toMatch(
      /refused: localhost resolves to/,
    );
    strict.close();
    expect(called).toBe(false);
  });
});
