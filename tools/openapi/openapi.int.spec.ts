import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIObject, OperationObject, SchemaObject } from '@nestjs/swagger';
import {
  CLIENT_TYPES_FILE,
  METADATA_FILE,
  OPENAPI_JSON,
  buildOpenApiDocument,
  findRepoRoot,
  generateClientTypes,
  generatePluginMetadataSource,
  serializeOpenApiDocument,
} from './generate-openapi';
import { API_ROUTE_GROUPS, ApiKeyRole, RouteGroup, readRouteGroups } from '@consign/gateway';
import { expectUpToDate as upToDate } from '../expect-up-to-date';

const root = findRepoRoot(__dirname);

const expectUpToDate = (file: string, generated: string) =>
  upToDate(root, file, generated, 'npm run openapi');

function schema(document: OpenAPIObject, name: string): SchemaObject {
  return document.components!.schemas![name] as SchemaObject;
}

type Media = { schema?: unknown; example?: unknown };

function operationsOf(document: OpenAPIObject): { where: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (['get', 'put', 'post', 'delete', 'patch'] as const).flatMap((method) =>
      item[method] ? [{ where: `${method.toUpperCase()} ${path}`, operation: item[method] }] : [],
    ),
  );
}

/** Every node of a JSON value, with the key it is under. */
function* nodes(value: unknown, key = ''): Generator<[string, Record<string, unknown>]> {
  if (Array.isArray(value)) for (const item of value) yield* nodes(item, key);
  else if (value && typeof value === 'object') {
    yield [key, value as Record<string, unknown>];
    for (const [k, v] of Object.entries(value)) yield* nodes(v, k);
  }
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

  it(`${CLIENT_TYPES_FILE} is what openapi-typescript makes of ${OPENAPI_JSON}`, async () => {
    expectUpToDate(CLIENT_TYPES_FILE, await generateClientTypes(root));
  });

  it('is OpenAPI 3.1 with servers, and writes the contracts rules as JSON Schema means them', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([
      expect.objectContaining({ url: '/' }),
      expect.objectContaining({ url: '{scheme}://{host}:{port}' }),
    ]);
    // @IsPositive(): a label item of 0.5 kg is valid, as the server says.
    const weight = schema(document, 'LabelItemDto').properties!.weight as SchemaObject;
    expect(weight).toMatchObject({ exclusiveMinimum: 0 });
    expect(weight.minimum).toBeUndefined();
    // An enum of strings is a string, wherever it is.
    const untyped = [...nodes(document.components)]
      .filter(([, node]) => Array.isArray(node.enum))
      .filter(([, node]) => {
        const values = (node.enum as unknown[]).filter((value) => value !== null);
        const types = [node.type].flat();
        return values.every((v) => typeof v === 'string') && !types.includes('string');
      });
    expect(untyped).toEqual([]);
  });

  it('documents 400, 401, 403, 404, 405, 429, 431, 503 and 504 everywhere, 413 and 415 with a body, 414 with a path parameter', () => {
    for (const { where, operation } of operationsOf(document)) {
      const statuses = Object.keys(operation.responses);
      const expected = ['400', '401', '403', '404', '405', '429', '431', '503', '504'];
      if (operation.requestBody) expected.push('413', '415');
      if ((operation.parameters ?? []).some((p) => 'in' in p && p.in === 'path'))
        expected.push('414');
      expect({ where, statuses }).toEqual({ where, statuses: expect.arrayContaining(expected) });
      for (const status of statuses.filter((s) => !s.startsWith('2'))) {
        const content = (operation.responses[status] as { content: Record<string, Media> }).content;
        expect({ where, status, content }).toEqual({
          where,
          status,
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ErrorEnvelope' },
              example: { code: Number(status), message: expect.any(String), data: null },
            },
          },
        });
      }
    }
  });

  it('has a description, a request example and success examples for every operation, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('int64', true).addFormat('binary', true);
    ajv.addSchema({ ...document, $id: 'openapi.json' }, undefined, undefined, false);
    const invalid: string[] = [];
    const check = (where: string, media: Media | undefined, pointer: string) => {
      if (media?.example === undefined) return invalid.push(`${where}: no example`);
      const validate = ajv.compile({ $ref: `openapi.json#${pointer}/schema` });
      if (!validate(media.example)) invalid.push(`${where}: ${ajv.errorsText(validate.errors)}`);
    };
    const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
        const operation = item[method];
        if (!operation) continue;
        const where = `${method.toUpperCase()} ${path}`;
        const base = `/paths/${escape(path)}/${method}`;
        if (!operation.description) invalid.push(`${where}: no description`);
        const body = operation.requestBody as { content: Record<string, Media> } | undefined;
        if (body)
          check(
            `${where} request`,
            body.content['application/json'],
            `${base}/requestBody/content/application~1json`,
          );
        for (const [status, response] of Object.entries(operation.responses)) {
          const content = (response as { content?: Record<string, Media> }).content ?? {};
          for (const [type, media] of Object.entries(content)) {
            if (/^(image|application\/pdf)/.test(type)) continue; // bytes
            check(
              `${where} ${status} ${type}`,
              media,
              `${base}/responses/${status}/content/${escape(type)}`,
            );
          }
        }
      }
    }
    expect(invalid).toEqual([]);
  });

  it('gives realistic email addresses as examples, where Swagger UI would make up random characters', () => {
    const examples = [...nodes(document)].flatMap(([, node]) =>
      'example' in node
        ? [...nodes({ example: node.example })].flatMap(([, n]) => Object.values(n))
        : [],
    );
    const emails = examples.filter(
      (value): value is string => typeof value === 'string' && /^\S+@\S+$/.test(value),
    );
    expect(emails.length).toBeGreaterThan(0);
    for (const email of emails) expect(email).toMatch(/^[a-z]+([.-][a-z]+)*@example\.com$/);
    // A patterned string (an email, a currency) has its own example.
    const patterned = [...nodes(document.components)].filter(
      ([key, node]) =>
        key !== 'properties' && typeof node.pattern === 'string' && node.example === undefined,
    );
    expect(patterned.map(([key]) => key)).toEqual([]);
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
    // Optional: may be left out or sent as null (taken as absent).
    expect(request.properties!.variants).toEqual(
      expect.objectContaining({
        type: ['array', 'null'],
        items: { $ref: '#/components/schemas/CreateVariantRequest' },
      }),
    );
    expect(request.required).not.toContain('variants');
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
  });

  it('names the key each operation takes, as the route table grants it', () => {
    const expected = (access: RouteGroup['routes'][number]['access']): string[] => {
      if (access === undefined) return [];
      if ('carrier' in access) return ['carrier'];
      const { roles } = access;
      if (roles.length === 1 && roles[0] === ApiKeyRole.Admin) return ['admin'];
      if (roles.length === 1 && roles[0] === ApiKeyRole.Operator) return ['operator'];
      throw new Error(`no security scheme describes roles ${roles.join(', ')}`);
    };
    const routes = readRouteGroups(API_ROUTE_GROUPS).flatMap((group) =>
      group.routes.map((route) => ({
        where: `${route.method} /${group.prefix}${route.path ? `/${route.path}` : ''}`.replace(
          /:(\w+)/g,
          '{$1}',
        ),
        schemes: expected(route.access),
      })),
    );
    const documented = operationsOf(document).map(({ where, operation }) => ({
      where,
      schemes: (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
    }));
    expect(documented).toEqual(expect.arrayContaining(routes));
    const operatorOnly = routes.filter(({ schemes }) => schemes.includes('operator'));
    expect(operatorOnly.map(({ where }) => where).sort()).toEqual([
      'POST /2025-07/cloud/inbound/{inbound_id}/receipt',
      'POST /2025-07/cloud/inbound/{inbound_id}/reject',
      'POST /2025-07/cloud/order/{order_id}/pick',
      'POST /2025-07/cloud/order/{order_id}/ship',
    ]);
    expect(document.components!.securitySchemes!.operator).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('`operator`'),
    });
    for (const { where } of operatorOnly) {
      const { operation } = operationsOf(document).find((op) => op.where === where)!;
      expect({ where, description: operation.description }).toEqual({
        where,
        description: expect.stringContaining('Authenticated with an operator key'),
      });
    }
  });

  it('documents Idempotency-Key, and its 409, 422 and 504, on every POST that creates or changes something', () => {
    const posts = Object.entries(document.paths).flatMap(([path, item]) =>
      item.post ? [{ path, post: item.post }] : [],
    );
    // Keys are scoped to a merchant: carriers' event batches are deduplicated by content, and the
    // admin API acts for no merchant (its writes are an administrator's, by hand).
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
