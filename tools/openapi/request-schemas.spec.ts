import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DocumentSchema,
  contractSchemasOf,
  disagreements,
} from '../checks/contract-schema-agreement';
import { API_ROUTE_GROUPS, readRouteGroups } from '@consign/gateway';
import type { OpenAPIObject, ParameterObject } from '@nestjs/swagger';
import { operationIdOf, operationsById } from './openapi-document';
import { findRepoRoot } from './plugin-metadata';

/**
 * The API document's request schemas and the validation rules are one: for every contract class
 * the document describes, each keyword of the reader's JSON Schema is in the document's schema
 * with the same value, both require the same properties, and the document lists null where the
 * gateway takes it as absent (@IsOptional) and nowhere else (contract-schema-agreement.ts).
 */
const document = JSON.parse(
  readFileSync(join(findRepoRoot(__dirname), 'docs', 'openapi.json'), 'utf8'),
) as OpenAPIObject & { components: { schemas: Record<string, DocumentSchema> } };

const compared = () => contractSchemasOf(document.components.schemas);
const NULLS = { nulls: true };

describe("the API document's request schemas", () => {
  it('cover the request contracts', () => {
    const names = compared().map(([name]) => name);
    expect(names.length).toBeGreaterThan(30);
    expect(names).toEqual(
      expect.arrayContaining(['CreateOrderRequest', 'CalculateOrderRequest', 'CreateLabelRequest']),
    );
  });

  it('say what the validation rules say, property by property', () => {
    expect(
      compared().flatMap(([name, schema, cls]) => disagreements(name, schema, cls, NULLS)),
    ).toEqual([]);
  });

  it('would report a documented limit that is not the rule', () => {
    const [name, schema, cls] = compared().find(([n]) => n === 'HoldOrderRequest')!;
    const altered = structuredClone(schema);
    const [property, documented] = Object.entries(altered.properties ?? {})[0];
    documented.maxLength = (documented.maxLength as number) + 1;
    expect(disagreements(name, altered, cls, NULLS)).toEqual([
      expect.stringContaining(`${name}.${property} maxLength`),
    ]);
  });

  it('would report an optional property not documented as nullable, and a required one that is', () => {
    const [name, schema, cls] = compared().find(([n]) => n === 'CreateLabelRequest')!;
    const altered = structuredClone(schema);
    const properties = altered.properties!;
    properties.expect_pickup_time.type = 'string';
    properties.package_attributes = { $ref: '#/components/schemas/PackageAttributesDto' };
    properties.service = { anyOf: [properties.service, { type: 'null' }] };
    properties.weight_unit.enum = [...(properties.weight_unit.enum as unknown[]), null];
    expect(disagreements(name, altered, cls, NULLS)).toEqual([
      `${name}.weight_unit: documented nullable, the rules refuse null`,
      `${name}.expect_pickup_time: documented not nullable, the rules take null as absent`,
      `${name}.service: documented nullable, the rules refuse null`,
      `${name}.package_attributes: documented not nullable, the rules take null as absent`,
    ]);
  });

  it('give each query parameter what its query contract says of it', () => {
    const operations = operationsById(document);
    const found: string[] = [];
    let checked = 0;
    for (const group of readRouteGroups(API_ROUTE_GROUPS))
      for (const route of group.routes) {
        if (!route.query) continue;
        const operation = operations.get(operationIdOf(group, route))!;
        const parameters = ((operation.parameters ?? []) as ParameterObject[]).filter(
          (parameter) => parameter.in === 'query',
        );
        const schema: DocumentSchema = {
          type: 'object',
          properties: Object.fromEntries(
            parameters.map((p) => [p.name, p.schema as DocumentSchema]),
          ),
          required: parameters.filter((p) => p.required).map((p) => p.name),
        };
        checked += parameters.length;
        found.push(...disagreements(operationIdOf(group, route), schema, route.query));
      }
    expect(checked).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });
});
