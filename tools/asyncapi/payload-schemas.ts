import { join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import * as contracts from '@consign/contracts';
import { ContractSchema, applyContractRules } from '@consign/contracts';

export type JsonSchema = { [key: string]: unknown };

const WIRE_TYPES = 'tools/asyncapi/wire-types.ts';

/** Every class the contracts library exports, by name (the schemas' definitions are named so). */
function contractClasses(): Map<string, new (...args: never[]) => unknown> {
  const classes = new Map<string, new (...args: never[]) => unknown>();
  for (const value of Object.values(contracts) as unknown[]) {
    if (typeof value === 'function' && /^[A-Z]/.test(value.name) && value.prototype) {
      classes.set(value.name, value as new (...args: never[]) => unknown);
    }
  }
  return classes;
}

/** `#/definitions/X` (ts-json-schema-generator) → `#/components/schemas/X` (AsyncAPI). */
function relocateRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relocateRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string'
        ? inner.replace('#/definitions/', '#/components/schemas/')
        : relocateRefs(inner);
  }
  return out;
}

/**
 * JSON Schemas of the bus payloads. The structure (types, nullability, nesting, required
 * properties, enums) comes from the TypeScript types (ts-json-schema-generator, classes and
 * interfaces alike); the limits come from the classes' class-validator rules, i.e. exactly what a
 * consumer validates with, read by the same function as the OpenAPI document's
 * (applyContractRules, libs/contracts), with `@IsOptional()` making a property not required. Unknown properties are allowed (validation
 * strips them: whitelist), so no `additionalProperties: false`.
 */
export class PayloadSchemas {
  private readonly generator: ReturnType<typeof createGenerator>;
  private readonly definitions: Record<string, JsonSchema> = {};

  constructor(root: string) {
    this.generator = createGenerator({
      path: join(root, WIRE_TYPES),
      tsconfig: join(root, 'tsconfig.json'),
      skipTypeCheck: true,
      expose: 'export',
      topRef: true,
      jsDoc: 'extended',
      additionalProperties: true,
      sortProps: true,
    });
  }

  /** Adds the named type (and what it refers to) and returns a reference to it. */
  ref(typeName: string): JsonSchema {
    if (!this.definitions[typeName]) {
      const schema = this.generator.createSchema(typeName) as {
        definitions?: Record<string, JsonSchema>;
      };
      for (const [name, definition] of Object.entries(schema.definitions ?? {})) {
        if (!/^[\w.-]+$/.test(name)) throw new Error(`schema name not usable in AsyncAPI: ${name}`);
        this.definitions[name] ??= relocateRefs(definition) as JsonSchema;
      }
      if (!this.definitions[typeName]) throw new Error(`no schema generated for ${typeName}`);
    }
    return { $ref: `#/components/schemas/${typeName}` };
  }

  /** The definitions with the validation rules applied, sorted by name. */
  schemas(): Record<string, JsonSchema> {
    const classes = contractClasses();
    const named = Object.keys(this.definitions)
      .map((name) => classes.get(name))
      .filter((cls): cls is new (...args: never[]) => unknown => cls !== undefined);
    applyContractRules(this.definitions as Record<string, ContractSchema>, named, {
      optionalNotRequired: true,
    });
    return Object.fromEntries(
      Object.keys(this.definitions)
        .sort()
        .map((name) => [name, this.definitions[name]]),
    );
  }
}
