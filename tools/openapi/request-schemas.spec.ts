import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DocumentSchema,
  contractSchemasOf,
  disagreements,
} from '../checks/contract-schema-agreement';
import { findRepoRoot } from './plugin-metadata';

/**
 * The API document's request schemas and the validation rules are one: for every contract class
 * the document describes, each keyword of the reader's JSON Schema is in the document's schema
 * with the same value, and both require the same properties (contract-schema-agreement.ts).
 */
const document = JSON.parse(
  readFileSync(join(findRepoRoot(__dirname), 'docs', 'openapi.json'), 'utf8'),
) as { components: { schemas: Record<string, DocumentSchema> } };

const compared = () => contractSchemasOf(document.components.schemas);

describe("the API document's request schemas", () => {
  it('cover the request contracts', () => {
    const names = compared().map(([name]) => name);
    expect(names.length).toBeGreaterThan(30);
    expect(names).toEqual(
      expect.arrayContaining(['CreateOrderRequest', 'CalculateOrderRequest', 'CreateLabelRequest']),
    );
  });

  it('say what the validation rules say, property by property', () => {
    expect(compared().flatMap(([name, schema, cls]) => disagreements(name, schema, cls))).toEqual(
      [],
    );
  });

  it('would report a documented limit that is not the rule', () => {
    const [name, schema, cls] = compared().find(([n]) => n === 'HoldOrderRequest')!;
    const altered = structuredClone(schema);
    const [property, documented] = Object.entries(altered.properties ?? {})[0];
    documented.maxLength = (documented.maxLength as number) + 1;
    expect(disagreements(name, altered, cls)).toEqual([
      expect.stringContaining(`${name}.${property} maxLength`),
    ]);
  });
});
