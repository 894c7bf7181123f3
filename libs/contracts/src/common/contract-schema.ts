import { ContractClass, ContractRule, describeContract } from './contract-metadata';
import { COUNTRY_CODE_PATTERN, CURRENCY_CODE_PATTERN, EMAIL_PATTERN } from './formats';

/**
 * The contracts' validation rules as JSON Schema keywords, for the documents (the OpenAPI document,
 * tools/openapi, and the AsyncAPI payloads, tools/asyncapi), from the rules' description by
 * contract-metadata.ts. The structure of each schema (types, nesting, required properties) comes from
 * the TypeScript types (the Swagger CLI plugin, ts-json-schema-generator); the limits are read
 * where they live at run time, i.e. exactly what the gateway and the consumers validate with. (The
 * CLI plugin's class-validator shim copies a rule only when its argument is a literal; the
 * contracts name their limits, `@MaxLength(PRODUCT_LIMITS.title)`.)
 */

/** A JSON Schema object, as both documents hold them. */
export interface ContractSchema {
  /** One type, or a list of them (`["string", "null"]`: nullable). */
  type?: string | string[];
  properties?: Record<string, ContractSchema>;
  items?: ContractSchema;
  required?: string[];
  $ref?: string;
  allOf?: unknown[];
  oneOf?: unknown[];
  [keyword: string]: unknown;
}

type Rule = (schema: ContractSchema, constraints: unknown[]) => void;

const setIfAbsent = (schema: ContractSchema, key: string, value: unknown): void => {
  if (schema[key] === undefined) schema[key] = value;
};

/**
 * Whether the schema's type is `type`: alone, or in a list (JSON Schema's nullable form,
 * `["string", "null"]`, as ts-json-schema-generator writes a `string | null`).
 */
const hasType = (schema: ContractSchema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/** The schema's type `from` (alone or in a list) becomes `to`. */
const retype = (schema: ContractSchema, from: string, to: string): void => {
  if (schema.type === from) schema.type = to;
  else if (Array.isArray(schema.type))
    schema.type = schema.type.map((type) => (type === from ? to : type));
};

/** Rules on a value (applied to `items` when the decorator has `each: true`). */
const VALUE_RULES: Record<string, Rule> = {
  maxLength: (s, [max]) => (s.maxLength = max),
  minLength: (s, [min]) => (s.minLength = min),
  isLength: (s, [min, max]) => {
    s.minLength = min;
    if (typeof max === 'number') s.maxLength = max;
  },
  isNotEmpty: (s) => hasType(s, 'string') && setIfAbsent(s, 'minLength', 1),
  min: (s, [min]) => (s.minimum = min),
  /** Greater than 0: a label item of 0.5 kg is positive (the Swagger plugin's shim says `minimum: 1`). */
  isPositive: (s) => {
    if (typeof s.minimum === 'number' && s.minimum > 0 && s.minimum !== 1) return; // stricter
    delete s.minimum;
    s.exclusiveMinimum = 0;
  },
  max: (s, [max]) => (s.maximum = max),
  isInt: (s) => retype(s, 'number', 'integer'),
  isIn: (s, [values]) => {
    s.enum = values;
    // A TypeScript union of literals comes out of the Swagger plugin as `type: object`.
    const types = new Set((values as unknown[]).map((value) => typeof value));
    if (types.size === 1 && (types.has('string') || types.has('number')))
      s.type = types.has('string') ? 'string' : 'number';
  },
  matches: (s, [pattern]) =>
    (s.pattern = pattern instanceof RegExp ? pattern.source : String(pattern)),
  isCurrencyCode: (s) => (s.pattern = CURRENCY_CODE_PATTERN.source),
  isCountryCode: (s) => (s.pattern = COUNTRY_CODE_PATTERN.source),
  isEmailAddress: (s) => (s.pattern = EMAIL_PATTERN.source),
  isCalendarDate: (s) => (s.format = 'date'),
  isIsoDateTime: (s) => (s.format = 'date-time'),
  isZonedDateTime: (s) => (s.format = 'date-time'),
  /**
   * Number(precision, scale): its bounds; the scale is in the description, not `multipleOf`.
   * `multipleOf: 0.01` is exact in JSON Schema but not in the binary floating point validators
   * compute with: Stoplight Prism (Ajv without `multipleOfPrecision`) refuses 0.07 or 19.99
   * as "not a multiple of 0.01", so the document would call valid bodies invalid.
   */
  isDecimal: (s, [precision, scale]) => {
    const p = Number(precision);
    const d = Number(scale);
    const largest = Number(`${'9'.repeat(p - d)}.${'9'.repeat(d)}`);
    setIfAbsent(s, 'maximum', largest);
    if (s.exclusiveMinimum === undefined) setIfAbsent(s, 'minimum', -largest);
  },
};

/** Rules on the array itself. */
const ARRAY_RULES: Record<string, Rule> = {
  arrayMinSize: (s, [min]) => (s.minItems = min),
  arrayMaxSize: (s, [max]) => (s.maxItems = max),
  arrayNotEmpty: (s) => setIfAbsent(s, 'minItems', 1),
  arrayUnique: (s) => (s.uniqueItems = true),
};

function isPlain(schema: ContractSchema | undefined): schema is ContractSchema {
  return !!schema && !schema.$ref && !schema.allOf && !schema.oneOf;
}

/** Writes one rule as JSON Schema keywords on a property's schema (its items' for an `each` rule). */
export function applyContractRule(property: ContractSchema, rule: ContractRule): void {
  const name = rule.name;
  const arrayRule = ARRAY_RULES[name];
  if (arrayRule) {
    if (property.type === 'array') arrayRule(property, rule.constraints);
    return;
  }
  const valueRule = VALUE_RULES[name];
  if (!valueRule) return;
  const target = rule.each && property.type === 'array' ? property.items : property;
  if (isPlain(target)) valueRule(target, rule.constraints);
}

/**
 * Adds each contract class's validation rules to its schema in `schemas` (keyed by class name).
 * With `optionalNotRequired`, a property with `@IsOptional()` is also taken out of `required`
 * (for schemas made from TypeScript types, where a defaulted property looks required).
 */
export function applyContractRules(
  schemas: Record<string, ContractSchema>,
  classes: readonly ContractClass[],
  options: { optionalNotRequired?: boolean } = {},
): void {
  for (const cls of classes) {
    const schema = schemas[(cls as { name: string }).name];
    if (!schema || schema.$ref) continue;
    const { properties } = describeContract(cls);
    for (const { name, rules } of properties) {
      const property = schema.properties?.[name];
      if (property && !property.$ref) for (const rule of rules) applyContractRule(property, rule);
    }
    if (!options.optionalNotRequired || !Array.isArray(schema.required)) continue;
    const optional = new Set(
      properties
        .filter(({ rules }) => rules.some((rule) => rule.name === 'isOptional'))
        .map(({ name }) => name),
    );
    const kept = schema.required.filter((property) => !optional.has(property));
    if (kept.length) schema.required = kept;
    else delete schema.required;
  }
}
