import { openApiViolations } from './openapi-conformance';

const json = 'application/json; charset=utf-8';

describe('openApiViolations (answers against docs/openapi.json)', () => {
  it('passes an answer the document allows, the most specific path first', () => {
    expect(
      openApiViolations({
        method: 'GET',
        url: '/2025-07/cloud/product/all?page=1',
        status: 200,
        contentType: json,
        body: { code: 200, message: 'success', data: [] },
      }),
    ).toEqual([]);
    expect(
      openApiViolations({
        method: 'GET',
        url: '/2025-07/cloud/product/7',
        status: 404,
        contentType: json,
        body: { code: 404, message: 'Not found.', data: null },
      }),
    ).toEqual([]);
  });

  it('names a body the schema refuses, an undocumented status and a wrong content type', () => {
    const base = { method: 'GET', url: '/2025-07/cloud/product/7', contentType: json };
    expect(
      openApiViolations({
        ...base,
        status: 200,
        body: { code: 200, message: 'success', data: { id: 'x' } },
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /ProductController_get\): body\/data must have required property 'title'/,
        ),
        expect.stringMatching(/body\/data\/id must be (number|integer)/),
      ]),
    );
    expect(openApiViolations({ ...base, status: 418, body: {} })).toEqual([
      expect.stringMatching(/418 .*status not documented/),
    ]);
    expect(
      openApiViolations({ ...base, contentType: 'text/html', status: 404, body: undefined }),
    ).toEqual([expect.stringMatching(/content type text\/html not among application\/json/)]);
  });

  it('takes another method on a documented path as a 405, and leaves paths outside the API alone', () => {
    const answer = {
      contentType: json,
      body: { code: 405, message: 'Method not allowed.', data: null },
    };
    expect(
      openApiViolations({
        ...answer,
        method: 'DELETE',
        url: '/2025-07/cloud/product/7',
        status: 405,
      }),
    ).toEqual([]);
    expect(
      openApiViolations({
        ...answer,
        method: 'DELETE',
        url: '/2025-07/cloud/product/7',
        status: 200,
      }),
    ).toEqual([expect.stringMatching(/must answer 405/)]);
    expect(
      openApiViolations({ ...answer, method: 'GET', url: '/health/ready', status: 200 }),
    ).toEqual([]);
  });
});
