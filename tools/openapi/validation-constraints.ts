import { getMetadataStorage } from 'class-validator';
import type { Type } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { COUNTRY_CODE_PATTERN, CURRENCY_CODE_PATTERN, EMAIL_PATTERN } from '@consign/contracts';

/**
 * The CLI plugin's class-validator shim copies a rule only when its argument is a literal
 * (`@MaxLength(256)`); in read-only (metadata) mode it drops `@MaxLength(PRODUCT_LIMITS.title)`.
 * The contracts name their limits, so the rules are read where they live at run time:
 * class-validator's own metadata, i.e. exactly what the gateway validates with.
 */
type ValidationMetadata = ReturnType<
  ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']
>[number];

type Rule = (schema: SchemaObject, constraints: unknown[]) => void;

const setIfAbsent = <K extends keyof SchemaObject>(
  schema: SchemaObject,
  key: K,
  value: SchemaObject[K],
): void => {
  if (schema[key] === undefined) schema[key] = value;
};

const isString = (schema: SchemaObject) => schema.type === 'string';

/** Rules on a value (applied to `items` when the decorator has `each: true`). */
const VALUE_RULES: Record<string, Rule> = {
  maxLength: (s, [max]) => (s.maxLength = max as number),
  minLength: (s, [min]) => (s.minLength = min as number),
  isLength: (s, [min, max]) => {
    s.minLength = min as number;
    if (typeof max === 'number') s.maxLength = max;
  },
  isNotEmpty: (s) => isString(s) && setIfAbsent(s, 'minLength', 1),
  min: (s, [min]) => (s.minimum = min as number),
  max: (s, [max]) => (s.maximum = max as number),
  isInt: (s) => s.type === 'number' && (s.type = 'integer'),
  isIn: (s, [values]) => (s.enum = values as unknown[]),
  matches: (s, [pattern]) =>
    (s.pattern = pattern instanceof RegExp ? pattern.source : String(pattern)),
  isCurrencyCode: (s) => (s.pattern = CURRENCY_CODE_PATTERN.source),
  isCountryCode: (s) => (s.pattern = COUNTRY_CODE_PATTERN.source),
  isEmailAddress: (s) => (s.pattern = EMAIL_PATTERN.source),
  isCalendarDate: (s) => (s.format = 'date'),
  isIsoDateTime: (s) => (s.format = 'date-time'),
  isZonedDateTime: (s) => (s.format = 'date-time'),
  /** Number(precision, scale): its bounds and step; the text of the rule is in the description. */
  isDecimal: (s, [precision, scale]) => {
    const p = Number(precision);
    const d = Number(scale);
    const largest = Number(`${'9'.repeat(p - d)}.${'9'.repeat(d)}`);
    s.multipleOf = Number(`1e-${d}`);
    setIfAbsent(s, 'maximum', largest);
    setIfAbsent(s, 'minimum', -largest);
  },
};

/** Rules on the array itself. */
const ARRAY_RULES: Record<string, Rule> = {
  arrayMinSize: (s, [min]) => (s.minItems = min as number),
  arrayMaxSize: (s, [max]) => (s.maxItems = max as number),
  arrayNotEmpty: (s) => setIfAbsent(s, 'minItems', 1),
  arrayUnique: (s) => (s.uniqueItems = true),
};

function isReference(
  schema: SchemaObject | ReferenceObject | undefined,
): schema is ReferenceObject {
  return !!schema && '$ref' in schema;
}

function apply(property: SchemaObject, rule: ValidationMetadata): void {
  const name = rule.name ?? rule.type;
  const arrayRule = ARRAY_RULES[name];
  if (arrayRule) {
    if (property.type === 'array') arrayRule(property, rule.constraints ?? []);
    return;
  }
  const valueRule = VALUE_RULES[name];
  if (!valueRule) return;
  const target = rule.each && property.type === 'array' ? property.items : property;
  if (!target || isReference(target) || target.allOf || target.oneOf) return;
  valueRule(target, rule.constraints ?? []);
}

/** Adds each contract class's validation rules to its schema in `document`. */
export function applyValidationConstraints(
  document: OpenAPIObject,
  classes: Type<unknown>[],
): void {
  const schemas = document.components?.schemas ?? {};
  const storage = getMetadataStorage();
  for (const cls of classes) {
    const schema = schemas[cls.name];
    if (!schema || isReference(schema)) continue;
    for (const rule of storage.getTargetValidationMetadatas(cls, '', true, false)) {
      const property = schema.properties?.[rule.propertyName];
      if (property && !isReference(property)) apply(property, rule);
    }
  }
}
