import * as contracts from '@consign/contracts';
import { ContractSchema, contractJsonSchema } from '@consign/contracts';

/**
 * Whether a document's schema of a contract class says what the class's validation rules say:
 * each keyword of the reader's JSON Schema (contractJsonSchema, made from the rules
 * validateContract applies) is in the document's schema with the same value, property by
 * property. The document may say more (a type where the rules have none, a description, an
 * example), never something else. Used by the checks of the OpenAPI document's request schemas
 * (with `nulls`: there an optional property may be sent as null, and the document says so) and
 * of the AsyncAPI document's payloads.
 */

/** The keywords compared: types and limits. */
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

export type DocumentSchema = ContractSchema & {
  properties?: Record<string, DocumentSchema>;
  required?: string[];
};

type ContractConstructor = new () => object;

/** The reader's schema of a property: what it says when present (@IsOptional adds `null`). */
function present(schema: DocumentSchema, defs: Record<string, DocumentSchema>): DocumentSchema {
  const inner = rulesNull(schema) ? (schema.anyOf as DocumentSchema[])[1] : schema;
  const ref = inner.$ref;
  return ref ? defs[ref.split('/').pop()!] : inner;
}

/** A type without JSON Schema's `null` (a nullable property: OpenAPI 3.1, AsyncAPI). */
function typeOf(value: unknown): unknown {
  return Array.isArray(value) ? value.filter((t) => t !== 'null').join('|') : value;
}

/** An enum's values without null (a nullable property's enum lists it: OpenAPI 3.1). */
function enumOf(value: unknown): unknown {
  return Array.isArray(value) ? value.filter((v) => v !== null) : value;
}

/** Whether the document's schema of a property takes null (in its type, enum or anyOf). */
function documentsNull(schema: DocumentSchema): boolean {
  const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
  const anyOf = (schema.anyOf ?? []) as DocumentSchema[];
  return (
    types.includes('null') ||
    (Array.isArray(schema.enum) && schema.enum.includes(null)) ||
    anyOf.some((option) => option.type === 'null')
  );
}

/** Whether the reader's schema of a property takes null whatever else it says (@IsOptional). */
function rulesNull(schema: DocumentSchema): boolean {
  const anyOf = schema.anyOf as DocumentSchema[] | undefined;
  return anyOf?.length === 2 && anyOf[0].type === 'null';
}

/**
 * What the document says otherwise than the rules of `cls`, one line each; empty when it agrees
 * (the same keywords, and the same required properties: what must be sent is what validation
 * requires).
 */
export function disagreements(
  name: string,
  documented: DocumentSchema,
  cls: ContractConstructor,
  options: { nulls?: boolean } = {},
): string[] {
  const reader = contractJsonSchema(cls) as DocumentSchema & {
    $defs: Record<string, DocumentSchema>;
  };
  const found: string[] = [];
  const requiredDocumented = [...(documented.required ?? [])].sort();
  const requiredReader = [...(reader.required ?? [])].sort();
  if (requiredDocumented.join() !== requiredReader.join())
    found.push(
      `${name} requires [${requiredDocumented.join()}], the rules [${requiredReader.join()}]`,
    );
  for (const [property, readerSchema] of Object.entries(reader.properties ?? {})) {
    const doc = documented.properties?.[property];
    if (!doc) {
      found.push(`${name}.${property}: validated, not documented`);
      continue;
    }
    if (options.nulls && documentsNull(doc) !== rulesNull(readerSchema))
      found.push(
        `${name}.${property}: documented ${documentsNull(doc) ? '' : 'not '}nullable, ` +
          `the rules ${rulesNull(readerSchema) ? 'take null as absent' : 'refuse null'}`,
      );
    // A nested class is compared as its own component.
    if (doc.$ref || doc.allOf || doc.anyOf) continue;
    const rules = present(readerSchema, reader.$defs);
    for (const keyword of KEYWORDS) {
      if (rules[keyword] === undefined) continue;
      const [said, ruled] =
        keyword === 'type'
          ? [typeOf(doc.type), typeOf(rules.type)]
          : keyword === 'enum'
            ? [enumOf(doc.enum), rules.enum]
            : [doc[keyword], rules[keyword]];
      if (JSON.stringify(said) !== JSON.stringify(ruled))
        found.push(
          `${name}.${property} ${keyword}: documented ${JSON.stringify(said)}, ruled ${JSON.stringify(ruled)}`,
        );
    }
  }
  return found;
}

/** A document's schemas that are contract classes with validation rules, with their class. */
export function contractSchemasOf(
  schemas: Record<string, DocumentSchema>,
): [string, DocumentSchema, ContractConstructor][] {
  const exported = contracts as unknown as Record<string, unknown>;
  return Object.entries(schemas).flatMap(([name, schema]) => {
    const cls = exported[name];
    if (typeof cls !== 'function') return [];
    const reader = contractJsonSchema(cls as ContractConstructor);
    return Object.keys(reader.properties ?? {}).length > 0
      ? [[name, schema, cls as ContractConstructor]]
      : [];
  });
}
