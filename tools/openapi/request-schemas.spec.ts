import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as contracts from '@consign/contracts';
import { ContractSchema, contractJsonSchema } from '@consign/contracts';
import { findRepoRoot } from './plugin-metadata';

/**
 * The API document's request schemas and the validation rules are one: for every contract class
 * the document describes, each keyword of the reader's JSON Schema (contractJsonSchema, made from
 * the rules validateContract applies) is in the document's schema with the same value, and both
 * require the same properties. The document may say more (a property's type where the rules have
 * none, its description and example), never something else.
 */
const KEYWORDS = [
  'type',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
] as const;

type Schema = ContractSchema & { properties?: Record<string, Schema>; required?: string[] };

const document = JSON.parse(
  readFileSync(join(findRepoRoot(__dirname), 'docs', 'openapi.json'), 'utf8'),
) as { components: { schemas: Record<string, Schema> } };

/** The reader's schema of a property: what it says when present (@IsOptional adds `null`). */
function present(schema: Schema, defs: Record<string, Schema>): Schema {
  const anyOf = schema.anyOf as Schema[] | undefined;
  const inner = anyOf?.length === 2 && anyOf[0].type === 'null' ? anyOf[1] : schema;
  const ref = inner.$ref as string | undefined;
  return ref ? defs[ref.split('/').pop()!] : inner;
}

/** The document's type without OpenAPI 3.1's `null` (a nullable property). */
function typeOf(value: unknown): unknown {
  return Array.isArray(value) ? value.filter((t) => t !== 'null').join('|') : value;
}

function disagreements(name: string, documented: Schema, cls: new () => object): string[] {
  const reader = contractJsonSchema(cls) as Schema & { $defs: Record<string, Schema> };
  const found: string[] = [];
  const requiredDocumented = [...(documented.required ?? [])].sort().join();
  const requiredReader = [...(reader.required ?? [])].sort().join();
  if (requiredDocumented !== requiredReader)
    found.push(`${name} requires [${requiredDocumented}], the rules [${requiredReader}]`);
  for (const [property, readerSchema] of Object.entries(reader.properties ?? {})) {
    const doc = documented.properties?.[property];
    if (!doc) {
      found.push(`${name}.${property}: validated, not documented`);
      continue;
    }
    // A nested class is compared as its own component.
    if (doc.$ref || doc.allOf || doc.anyOf) continue;
    const rules = present(readerSchema, reader.$defs);
    for (const keyword of KEYWORDS) {
      if (rules[keyword] === undefined) continue;
      const [said, ruled] =
        keyword === 'type'
          ? [typeOf(doc.type), typeOf(rules.type)]
          : [doc[keyword], rules[keyword]];
      if (JSON.stringify(said) !== JSON.stringify(ruled))
        found.push(
          `${name}.${property} ${keyword}: documented ${JSON.stringify(said)}, ruled ${JSON.stringify(ruled)}`,
        );
    }
  }
  return found;
}

/** The document's components that are contract classes with validation rules. */
function compared(): [string, Schema, new () => object][] {
  const exported = contracts as unknown as Record<string, unknown>;
  return Object.entries(document.components.schemas).flatMap(([name, schema]) => {
    const cls = exported[name];
    if (typeof cls !== 'function') return [];
    const reader = contractJsonSchema(cls as new () => object) as Schema;
    return Object.keys(reader.properties ?? {}).length > 0
      ? [[name, schema, cls as new () => object]]
      : [];
  });
}

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
