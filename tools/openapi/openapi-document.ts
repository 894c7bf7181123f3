import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, SchemaObject } from '@nestjs/swagger';
import {
  CheckpointStatus,
  ContractSchema,
  INPUT_LIMITS,
  LABEL_VOIDED,
  RATING_WEIGHT_UNITS,
  applyContractRule,
  applyContractRules,
  describeContract,
  isPlainOptional,
} from '@consign/contracts';
import {
  API_ROUTE_GROUPS,
  MAX_PATH_PARAM_LENGTH,
  documentationControllers,
  readRouteGroups,
  openApiPluginMetadata,
} from '@consign/gateway';
import type { RouteGroup } from '@consign/gateway';
import { finishDocument } from './openapi-finish';
import { findRepoRoot } from './plugin-metadata';

export const OPENAPI_JSON = 'docs/openapi.json';

export const DESCRIPTION = `The HTTP interface of Consign, an open-source shipping and fulfilment platform.

- Authenticate every request with \`Authorization: Bearer <API key>\`; a missing or wrong key is a 401.
- Every response body is the envelope \`{code, message, data}\` and the HTTP status equals \`code\`.
  Success is 200, creates included, and \`data\` is the result. On failure \`data\` is null and
  \`message\` says what went wrong.
- 400: validation failure (\`message\` names each offending field by its API name and the rule
  broken: the first ${INPUT_LIMITS.listed_problems}, then how many more), malformed JSON, a malformed id or URL. 404: unknown id,
  or another merchant's. 405 (with \`Allow\`): a known path with another method. 409: conflict.
  413: body over the size limit. 414: a path parameter over ${MAX_PATH_PARAM_LENGTH} characters. 415: a body that is not
  JSON. 431: request headers (the URL included) over 16 KiB. 503 (with \`Retry-After\`): a service is unavailable. 504: a service did not answer in time.
- Hostile input is refused with a 400 before any operation runs, whatever the operation: NUL or an
  unpaired UTF-16 surrogate in any string or key, a string over its \`maxLength\` (every string
  field has one; ${INPUT_LIMITS.string_length} for a field the operation does not know), nesting deeper than
  ${INPUT_LIMITS.depth} levels, an array over ${INPUT_LIMITS.array_items} elements (or its own \`maxItems\`), and the keys \`__proto__\`, \`constructor\` and
  \`prototype\`. An empty body with a JSON content type is \`{}\` for an operation that takes none.
- \`Number(12,2)\` values are exact decimals: at most 12 digits, 2 of them after the point. Ids
  (\`Long\`) are JSON integers. Currency codes are ISO 4217, country codes ISO 3166-1 alpha-2, both checked against
  the assigned codes (validator.js' lists): \`XYZ\` and \`ZZ\` are refused.
  Date-times are ISO 8601 UTC with \`Z\`.
- The first path segment is the version: label operations and the admin API use \`2026-05\`, all
  others \`2025-07\`. The admin API (\`/2026-05/cloud/admin/…\`) takes an admin key and nothing
  else does.`;

type PluginMetadata = Record<string, unknown>;
type MetadataEntry = [Promise<Record<string, unknown>>, Record<string, unknown>];

/**
 * Resolves the plugin metadata and checks that every class it names is exported by the module it
 * is imported from (the libs' public entries), so that a missing export fails with its name.
 */
async function resolveMetadata(
  metadataFn: () => Promise<PluginMetadata>,
): Promise<{ metadata: PluginMetadata; models: Type<unknown>[] }> {
  const metadata = await metadataFn();
  const swagger = (metadata['@nestjs/swagger'] ?? {}) as Record<string, MetadataEntry[]>;
  const models: Type<unknown>[] = [];
  for (const [kind, entries] of Object.entries(swagger)) {
    for (const [imported, classes] of entries) {
      const exports = await imported;
      for (const name of Object.keys(classes)) {
        const cls = exports[name];
        if (typeof cls !== 'function')
          throw new Error(
            `OpenAPI metadata: ${name} is not exported by the module the metadata imports it from (a lib's src/index.ts); export it`,
          );
        if (kind === 'models') models.push(cls as Type<unknown>);
      }
    }
  }
  return { metadata, models };
}

/**
 * Every operation answers in the envelope, 200 on success (the house rules); nothing else —
 * except a document's bytes, on an operation marked `x-raw-body` (its failures are envelopes).
 */
function checkOperations(document: OpenAPIObject): void {
  const problems: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const ok = operation.responses['200'] as {
        content?: Record<string, { schema?: SchemaObject }>;
      };
      const envelope = ok?.content?.['application/json']?.schema?.allOf?.[0];
      // A document route (x-raw-body) answers bytes on success, its failures in the envelope.
      const raw = (operation as unknown as Record<string, unknown>)['x-raw-body'] === true;
      if (raw) {
        if (!ok?.content || 'application/json' in ok.content)
          problems.push(`${where}: a raw-body 200 response names its content types, not JSON`);
      } else if (!envelope || !('$ref' in envelope) || !envelope.$ref.endsWith('/Envelope'))
        problems.push(`${where}: no @ApiEnvelope(...) 200 response`);
      const others = Object.keys(operation.responses).filter((s) => /^2/.test(s) && s !== '200');
      if (others.length) problems.push(`${where}: success is 200, not ${others.join(', ')}`);
      if (!operation.summary) problems.push(`${where}: no @ApiOperation({ summary })`);
    }
  }
  if (problems.length) throw new Error(`OpenAPI document:\n${problems.join('\n')}`);
}

/**
 * Response properties whose TypeScript type the Swagger plugin cannot read (a union with a literal,
 * a type derived from a constant array): it writes `type: object`, and the answers' strings would
 * violate the document. Request properties get theirs from their validation rules instead.
 */
const UNREADABLE_TYPES: Record<string, Record<string, SchemaObject>> = {
  LabelView: {
    status: { type: 'string', enum: [...Object.values(CheckpointStatus), LABEL_VOIDED] },
  },
  CarrierServiceView: { charge_weight_unit: { type: 'string', enum: [...RATING_WEIGHT_UNITS] } },
};

/** Applies UNREADABLE_TYPES, and fails on any other `type: object` without properties. */
function typeUnreadableProperties(schemas: Record<string, SchemaObject>): void {
  for (const [name, properties] of Object.entries(UNREADABLE_TYPES))
    for (const [property, schema] of Object.entries(properties)) {
      const target = schemas[name]?.properties?.[property] as SchemaObject | undefined;
      if (!target) throw new Error(`UNREADABLE_TYPES: ${name}.${property} is not in the document`);
      Object.assign(target, schema);
    }
  const untyped = Object.entries(schemas).flatMap(([name, schema]) =>
    Object.entries(schema.properties ?? {}).flatMap(([property, value]) => {
      const s = value as SchemaObject;
      const described = s.properties || s.additionalProperties || s.enum || s.allOf || s.anyOf;
      return s.type === 'object' && !described && !s.oneOf ? [`${name}.${property}`] : [];
    }),
  );
  if (untyped.length)
    throw new Error(
      `OpenAPI document: untyped properties (\`type: object\` from a TypeScript type the Swagger plugin cannot read; type them in UNREADABLE_TYPES or with a validation rule): ${untyped.join(', ')}`,
    );
}

/**
 * An optional request property may be sent as null, read as if it were left out (the gateway's
 * nullAsAbsent; the README's HTTP rules): `nullable` (a null type once finishDocument has made
 * the document 3.1), so that a client, a generator or a validating proxy following the document
 * takes null as the server does. Only @IsOptional and nothing else: under a @ValidateIf, null
 * passes or not by the rest of the body, and the document leaves it out. Response classes hold
 * no validation rules and stay as they are.
 */
function nullableWhereOptional(
  schemas: Record<string, SchemaObject>,
  classes: readonly Type<unknown>[],
): void {
  for (const cls of classes) {
    const schema = schemas[cls.name];
    if (!schema?.properties) continue;
    for (const property of describeContract(cls).properties) {
      const target = schema.properties[property.name] as SchemaObject | undefined;
      if (target && isPlainOptional(property)) target.nullable = true;
    }
  }
}

/** A document's operations by their operationId. */
export function operationsById(
  document: Pick<OpenAPIObject, 'paths'>,
): Map<string, OperationObject> {
  const operations = new Map<string, OperationObject>();
  for (const item of Object.values(document.paths))
    for (const operation of Object.values(item) as OperationObject[])
      if (operation?.operationId) operations.set(operation.operationId, operation);
  return operations;
}

/** A route's operationId: its documentation controller's (`<group>Controller`) method's. */
export function operationIdOf(group: RouteGroup, route: { name: string }): string {
  return `${group.name}Controller_${route.name}`;
}

/**
 * The query contracts' rules on the query parameters Nest writes from them (one a property, typed
 * by the Swagger plugin), as applyContractRules writes the body contracts' on their schemas: a
 * client then reads `size` as an integer from 1 to 100, as the gateway takes it.
 */
function applyQueryRules(document: OpenAPIObject, groups: readonly RouteGroup[]): void {
  const operations = operationsById(document);
  for (const group of groups)
    for (const route of group.routes) {
      if (!route.query) continue;
      const operation = operations.get(operationIdOf(group, route));
      if (!operation)
        throw new Error(`OpenAPI document: no operation for ${group.name}.${route.name}`);
      const rules = new Map(
        describeContract(route.query).properties.map((property) => [property.name, property.rules]),
      );
      for (const parameter of operation.parameters ?? []) {
        if (!('in' in parameter) || parameter.in !== 'query' || !parameter.schema) continue;
        const schema = parameter.schema as ContractSchema;
        if (schema.$ref) continue;
        for (const rule of rules.get(parameter.name) ?? []) applyContractRule(schema, rule);
      }
    }
}

/** Keys sorted at every level, except the properties of a schema and examples (author's order). */
export function sortKeys(value: unknown, keepOrder = false): unknown {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item));
  if (!value || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (!keepOrder) keys.sort();
  return Object.fromEntries(
    keys.map((key) => [
      key,
      key === 'example'
        ? (value as Record<string, unknown>)[key]
        : sortKeys((value as Record<string, unknown>)[key], key === 'properties'),
    ]),
  );
}

/**
 * The OpenAPI document of the gateway's HTTP interface: the route table (API_ROUTE_GROUPS) as
 * documentation-only controllers in a module of their own (no database, bus or guards), the CLI
 * plugin's metadata of the contracts, the contracts' validation rules, and the envelope.
 */
export async function buildOpenApiDocument(
  options: { root?: string; metadata?: () => Promise<PluginMetadata> } = {},
): Promise<OpenAPIObject> {
  const root = options.root ?? findRepoRoot();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  const groups = readRouteGroups(API_ROUTE_GROUPS);
  const controllers = documentationControllers(groups);

  @Module({ controllers })
  class ApiDocsModule {}

  const { metadata, models } = await resolveMetadata(options.metadata ?? openApiPluginMetadata);
  await SwaggerModule.loadPluginMetadata(async () => metadata);
  const app = await NestFactory.create(ApiDocsModule, new FastifyAdapter(), {
    logger: false,
    abortOnError: false,
  });
  try {
    const config = new DocumentBuilder()
      .setTitle('Consign API')
      .setDescription(DESCRIPTION)
      .setVersion(version)
      .setLicense('MIT', 'https://opensource.org/licenses/MIT')
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: "The merchant's API key: `Authorization: Bearer <key>`.",
        },
        'bearer',
      )
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'operator API key',
          description:
            "An operator key: an API key of role `operator`, issued for a merchant's warehouse " +
            'staff by the admin API (`POST /2026-05/cloud/admin/key` with `{"role": "operator", ' +
            '"merchant_id": …}`, or `npm run admin -- key create --merchant <id> --role operator`), ' +
            'for the warehouse operations (picking and shipping orders, receiving and rejecting ' +
            'inbound deliveries): `Authorization: Bearer <key>`. A merchant key gets a 403 there.',
        },
        'operator',
      )
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'carrier credential',
          description:
            "A carrier's credential (`npm run admin -- carrier key create --carrier <code>`), " +
            'for the carrier webhook only: `Authorization: Bearer <credential>`.',
        },
        'carrier',
      )
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'admin API key',
          description:
            'An admin key (printed on first start, `BOOTSTRAP_ADMIN_KEY`, or issued by the admin ' +
            'API), for the admin API only (`/2026-05/cloud/admin/…`): `Authorization: Bearer <key>`.',
        },
        'admin',
      )
      .addSecurityRequirements('bearer')
      .build();
    const document = SwaggerModule.createDocument(app, config);
    const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
    applyContractRules(schemas as Record<string, ContractSchema>, models);
    applyQueryRules(document, groups);
    nullableWhereOptional(schemas, models);
    typeUnreadableProperties(schemas);
    checkOperations(document);
    finishDocument(document);
    return sortKeys(document) as OpenAPIObject;
  } finally {
    await app.close();
  }
}

/** The text of docs/openapi.json: 2-space indent, a trailing newline. */
export function serializeOpenApiDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
