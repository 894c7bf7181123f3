import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { aProduct } from '../factories/product.factory';
import { ApiClient } from './api-client';
import { type ObservedExchange, openApiViolations } from './openapi-conformance';
import { REPO_ROOT } from './processes';

const json = { 'content-type': 'application/json; charset=utf-8' };
const key = { authorization: 'Bearer test-key' };

function exchange(
  method: string,
  url: string,
  status: number,
  body: unknown,
  requestBody?: unknown,
): ObservedExchange {
  return {
    request: {
      method,
      url,
      headers: requestBody === undefined ? key : { ...key, 'content-type': 'application/json' },
      body: requestBody === undefined ? undefined : JSON.stringify(requestBody),
    },
    response: { status, headers: json, body },
  };
}

describe('openApiViolations (Stoplight Prism, exchanges against docs/openapi.json)', () => {
  it('passes exchanges the document allows, the most specific path first', async () => {
    await expect(
      openApiViolations(
        exchange('GET', '/2025-07/cloud/product/all?page=1', 200, {
          code: 200,
          message: 'success',
          data: [],
        }),
      ),
    ).resolves.toEqual([]);
    await expect(
      openApiViolations(
        exchange('GET', '/2025-07/cloud/product/7', 404, {
          code: 404,
          message: 'Not found.',
          data: null,
        }),
      ),
    ).resolves.toEqual([]);
  });

  it('names the operation and what the validator found: a wrong type, an undocumented status, a wrong content type', async () => {
    const wrongType = await openApiViolations(
      exchange('GET', '/2025-07/cloud/product/7', 200, {
        code: 200,
        message: 'success',
        data: { id: 'x' },
      }),
    );
    expect(wrongType).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/→ 200 \(ProductController_get\): response .*data.*'title'/),
        expect.stringMatching(/response .*data\.id.* must be (number|integer)/),
      ]),
    );
    await expect(
      openApiViolations(exchange('GET', '/2025-07/cloud/product/7', 418, {})),
    ).resolves.toEqual([
      expect.stringMatching(
        /→ 418 \(ProductController_get\): response: Unable to match the returned status/,
      ),
    ]);
    const html = exchange('GET', '/2025-07/cloud/product/7', 404, '<p>not found</p>');
    html.response.headers = { 'content-type': 'text/html' };
    await expect(openApiViolations(html)).resolves.toEqual(
      expect.arrayContaining([expect.stringMatching(/media type "text\/html"/)]),
    );
  });

  it('checks a request the server accepted, and leaves alone one it refused or a hostile one', async () => {
    const product = { ...aProduct(), title: 42 };
    const accepted = exchange(
      'POST',
      '/2025-07/cloud/product',
      200,
      { code: 200, message: 'success', data: null },
      product,
    );
    const violations = await openApiViolations(accepted);
    expect(violations).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\(ProductController_create\): request body.*title.*must be string/),
      ]),
    );
    await expect(
      openApiViolations(accepted, { validateRequest: false }),
    ).resolves.not.toContainEqual(expect.stringMatching(/: request/));
    const refused = exchange(
      'POST',
      '/2025-07/cloud/product',
      400,
      { code: 400, message: 'title must be a string', data: null },
      product,
    );
    await expect(openApiViolations(refused)).resolves.toEqual([]);
    const withoutKey = exchange('GET', '/2025-07/cloud/product/all', 200, {
      code: 200,
      message: 'success',
      data: [],
    });
    withoutKey.request.headers = {};
    await expect(openApiViolations(withoutKey)).resolves.toEqual([
      expect.stringMatching(/request.*(Authorization|security|credentials)/i),
    ]);
  });

  it('takes another method on a documented path as a 405, and leaves paths outside the API alone', async () => {
    const notAllowed = { code: 405, message: 'Method not allowed.', data: null };
    const deleted = exchange('DELETE', '/2025-07/cloud/product/7', 405, notAllowed);
    deleted.response.headers = { ...json, allow: 'GET' };
    await expect(openApiViolations(deleted)).resolves.toEqual([]);
    await expect(
      openApiViolations(exchange('DELETE', '/2025-07/cloud/product/7', 200, notAllowed)),
    ).resolves.toEqual([expect.stringMatching(/must answer 405/)]);
    await expect(
      openApiViolations(exchange('GET', '/health/ready', 200, { status: 'ok' })),
    ).resolves.toEqual([]);
  });
});

describe('the e2e client validates what it sees on the wire', () => {
  let server: Server;
  let client: ApiClient;
  /** What the fake gateway answers next. */
  let answer: { status: number; body: unknown };

  beforeAll(async () => {
    server = createServer((_request, response) => {
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new ApiClient(`http://127.0.0.1:${port}`, 'test-key');
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('returns a conforming answer and fails on one that violates the document', async () => {
    answer = { status: 200, body: { code: 200, message: 'success', data: [] } };
    await expect(client.get('/2025-07/cloud/product/all')).resolves.toMatchObject({ status: 200 });
    answer = { status: 200, body: { code: 200, message: 'success', data: 'not a list' } };
    await expect(client.get('/2025-07/cloud/product/all')).rejects.toThrow(
      /GET \/2025-07\/cloud\/product\/all → 200 \(ProductController_list\): response .*data.* must be array/,
    );
  });

  it('fails on a body sent to an operation that takes none, unless the client sends hostile requests', async () => {
    const revoke = '/2026-05/cloud/admin/key/7/revoke';
    const document = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')) as {
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
    };
    // The document's own example of the answer: only the request can be wrong.
    const ok = document.paths['/2026-05/cloud/admin/key/{key_id}/revoke'].post.responses['200'] as {
      content: { 'application/json': { example: unknown } };
    };
    answer = { status: 200, body: ok.content['application/json'].example };
    await expect(client.post(revoke)).resolves.toMatchObject({ status: 200 });
    await expect(client.post(revoke, {})).rejects.toThrow(
      /AdminController_revokeKey\): request: No supported content types/,
    );
    await expect(client.sendingHostileRequests().post(revoke, {})).resolves.toMatchObject({
      status: 200,
    });
  });
});
