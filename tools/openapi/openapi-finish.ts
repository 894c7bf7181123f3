import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import { ExampleMaker, JsonSchema } from './openapi-examples';

/**
 * Where the document's paths are served. First the gateway serving the document itself (a URL
 * relative to the document, which OpenAPI allows): what the /docs page tries requests against,
 * whatever host name the page was opened with (`npm start` names http://localhost:3000/docs; a
 * page sending to 127.0.0.1 from there is another origin, and the browser refuses it). Then any
 * gateway, by default `npm start` on this machine.
 */
export const SERVERS = [
  { url: '/', description: 'The gateway serving this document (where /docs sends requests).' },
  {
    url: '{scheme}://{host}:{port}',
    description: 'A Consign gateway: by default `npm start` on this machine.',
    variables: {
      scheme: { default: 'http', enum: ['http', 'https'] },
      host: { default: '127.0.0.1', description: "The gateway's host name or address." },
      port: { default: '3000', description: 'Its `PORT`.' },
    },
  },
];

/** Every tag an operation uses, described once. */
export const TAGS: Record<string, string> = {
  Admin:
    "The platform administrator's API (`/2026-05/cloud/admin/…`): merchants, API keys, carrier credentials, stock reconciliation. Takes an admin key (not an `operator` key: that is a merchant's key for the warehouse operations).",
  Carriers:
    'Carriers report checkpoint events for the parcels they carry, with a carrier credential.',
  'Cost calculation': 'Prices an order or a freight shipment before it is placed.',
  'Inbound orders': 'Stock announced to a warehouse, received or rejected there.',
  Inventory: 'Stock on hand, reserved and available, per SKU and warehouse.',
  Labels: 'Shipping labels: created, numbered by the carrier, printed, tracked and voided.',
  Orders: 'Customer orders fulfilled from a warehouse: reserved, picked, shipped, tracked.',
  Products: "The merchant's catalogue: products and their variants (SKUs).",
  'Reference data': 'The warehouses and carrier services a merchant may choose from.',
  Webhooks: 'Endpoints that receive signed event deliveries, with their delivery history.',
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

type Json = Record<string, unknown>;

function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) value.forEach((item) => walk(item, visit));
  else if (value && typeof value === 'object') {
    visit(value as Json);
    Object.values(value).forEach((child) => walk(child, visit));
  }
}

/**
 * OpenAPI 3.1 (@nestjs/swagger writes 3.0): its schemas are JSON Schema, so a rule such as
 * `exclusiveMinimum: 0` (`@IsPositive()`) means what it means to every validator, and `nullable`
 * becomes a `null` type.
 */
function toOpenApi31(document: OpenAPIObject): void {
  (document as { openapi: string }).openapi = '3.1.0';
  walk(document.components?.schemas, (node) => {
    if (node.nullable === undefined) return;
    const nullable = node.nullable === true;
    delete node.nullable;
    if (!nullable) return;
    if (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null) {
      delete node.enum;
      node.type = 'null';
      delete node.properties;
      return;
    }
    if (node.$ref || node.allOf) {
      // `allOf: [{$ref}]` was 3.0's way to put keywords beside a $ref; 3.1 needs none.
      const allOf = node.allOf as Json[] | undefined;
      const inner =
        allOf?.length === 1
          ? allOf[0]
          : Object.fromEntries(
              Object.entries(node).filter(([key]) => key === '$ref' || key === 'allOf'),
            );
      delete node.$ref;
      delete node.allOf;
      delete node.type;
      node.anyOf = [inner, { type: 'null' }];
      return;
    }
    if (typeof node.type === 'string') node.type = [node.type, 'null'];
    if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
  });
}

function operations(document: OpenAPIObject): [string, string, OperationObject][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] ? [[path, method, item[method]!] as const] : [])),
  ) as [string, string, OperationObject][];
}

function describe(operation: OperationObject): string {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  const auth = schemes.includes('admin')
    ? 'an admin key'
    : schemes.includes('carrier')
      ? "the carrier's credential"
      : schemes.includes('operator')
        ? 'an operator key (role `operator`, issued for the merchant; a merchant key gets a 403)'
        : "the merchant's API key";
  const idempotent = (operation.parameters ?? []).some(
    (p) => 'name' in p && p.name === 'Idempotency-Key',
  );
  return (
    `${operation.summary}. Authenticated with ${auth}.` +
    (idempotent ? ' Send `Idempotency-Key` to make a retry safe.' : '')
  );
}

/**
 * What @nestjs/swagger does not write: OpenAPI 3.1, servers, described tags, a description and
 * examples for every operation (its request body, its success), and failures answered as JSON only.
 */
export function finishDocument(document: OpenAPIObject): void {
  toOpenApi31(document);
  document.servers = SERVERS;
  const used = new Set(operations(document).flatMap(([, , op]) => op.tags ?? []));
  const undescribed = [...used].filter((tag) => !TAGS[tag]);
  if (undescribed.length)
    throw new Error(`OpenAPI tags without a description (TAGS): ${undescribed.join(', ')}`);
  document.tags = [...used].sort().map((name) => ({ name, description: TAGS[name] }));
  const maker = new ExampleMaker(
    (document.components?.schemas ?? {}) as Record<string, JsonSchema>,
  );
  // Swagger UI makes up an example from a `pattern` (random characters for an email): give one.
  const schemas = Object.entries(document.components?.schemas ?? {}) as [string, JsonSchema][];
  for (const [within, schema] of schemas)
    for (const [name, property] of Object.entries(schema.properties ?? {}))
      for (const target of [property, property.items].filter((s): s is JsonSchema => !!s))
        if (typeof target.pattern === 'string' && target.example === undefined)
          target.example = maker.of(target, name, within);
  for (const [, , operation] of operations(document)) {
    // Who may call it first, then what the route itself says, if anything.
    operation.description = [describe(operation), operation.description].filter(Boolean).join(' ');
    const body = operation.requestBody as { content?: Record<string, Json> } | undefined;
    const json = body?.content?.['application/json'];
    if (json && json.example === undefined) json.example = maker.of(json.schema as JsonSchema);
    for (const [status, response] of Object.entries(operation.responses)) {
      const content = (response as { content?: Record<string, Json> }).content;
      if (!content) continue;
      if (!status.startsWith('2')) {
        // Failures are envelopes, whatever the success's content type.
        for (const type of Object.keys(content))
          if (type !== 'application/json') delete content[type];
        continue;
      }
      const ok = content['application/json'];
      if (ok && ok.example === undefined) {
        const data = ((ok.schema as JsonSchema).allOf?.[1] as JsonSchema | undefined)?.properties
          ?.data;
        ok.example = { code: 200, message: 'success', data: data ? maker.of(data) : null };
      }
    }
  }
}
