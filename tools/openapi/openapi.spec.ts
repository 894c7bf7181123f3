import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger';
import {
  METADATA_FILE,
  OPENAPI_JSON,
  buildOpenApiDocument,
  findRepoRoot,
  generatePluginMetadataSource,
  serializeOpenApiDocument,
} from './generate-openapi';
import { expectUpToDate as upToDate } from '../expect-up-to-date';

const root = findRepoRoot(__dirname);

const expectUpToDate = (file: string, generated: string) =>
  upToDate(root, file, generated, 'npm run openapi');

function schema(document: OpenAPIObject, name: string): SchemaObject {
  return document.components!.schemas![name] as SchemaObject;
}

describe('OpenAPI document', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    document = await buildOpenApiDocument({ root });
  });

  it(`${METADATA_FILE} matches the contracts and controllers`, async () => {
    expectUpToDate(METADATA_FILE, await generatePluginMetadataSource(root));
  });

  it(`${OPENAPI_JSON} matches the code`, () => {
    expectUpToDate(OPENAPI_JSON, serializeOpenApiDocument(document));
  });

  it('documents the create-product body with the contract limits', () => {
    const create = document.paths['/2025-07/cloud/product'].post!;
    const body = create.requestBody as { content: Record<string, { schema: { $ref: string } }> };
    expect(body.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreateProductRequest',
    );
    const request = schema(document, 'CreateProductRequest');
    expect(request.required).toContain('title');
    expect(request.properties!.title).toMatchObject({ type: 'string', maxLength: 256 });
    expect(request.properties!.variants).toEqual(
      expect.objectContaining({
        type: 'array',
        items: { $ref: '#/components/schemas/CreateVariantRequest' },
      }),
    );
    expect(schema(document, 'CreateVariantRequest').properties!.sku).toMatchObject({
      type: 'string',
      maxLength: 128,
    });
  });

  it('answers every operation in the envelope, and authenticates with a bearer key', () => {
    expect(document.components!.securitySchemes!.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    const get = document.paths['/2025-07/cloud/product/{product_id}'].get!;
    expect(get.responses['200']).toMatchObject({
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Envelope' },
              { properties: { data: { $ref: '#/components/schemas/ProductView' } } },
            ],
          },
        },
      },
    });
    expect(get.responses['404']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    });
    expect(document.servers).toBeUndefined();
  });

  it('documents Idempotency-Key, and its 409, 422 and 504, on every POST that creates or changes something', () => {
    const posts = Object.entries(document.paths).flatMap(([path, item]) =>
      item.post ? [{ path, post: item.post }] : [],
    );
    // Keys are scoped to a merchant: carriers' event batches are deduplicated by content, and the
    // admin API acts for no merchant (its writes are an operator's, by hand).
    const merchantPosts = posts.filter(
      ({ path }) => !path.includes('/carrier/') && !path.includes('/cloud/admin/'),
    );
    expect(merchantPosts.length).toBeGreaterThanOrEqual(12);
    for (const { path, post } of merchantPosts) {
      const header = (post.parameters ?? []).find(
        (p) => 'name' in p && p.name === 'Idempotency-Key',
      );
      expect({ path, header }).toMatchObject({
        path,
        header: { in: 'header', required: false, schema: { maxLength: 255, minLength: 1 } },
      });
      expect({ path, answers: Object.keys(post.responses) }).toEqual({
        path,
        answers: expect.arrayContaining(['409', '422', '504']),
      });
      expect(post.responses).toMatchObject({
        '504': { description: expect.stringContaining('deadline') },
        '422': { description: expect.stringContaining('Idempotency-Key') },
      });
      expect(post.responses['200']).toMatchObject({ headers: { 'Idempotent-Replayed': {} } });
    }
  });
});
