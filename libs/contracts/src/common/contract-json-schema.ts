import { ValidationArguments } from 'class-validator';
import { ContractClass, ContractProperty, describeContract } from './contract-metadata';
import { ContractSchema, applyContractRule } from './contract-schema';

/**
 * A contract class's rules as one complete JSON Schema (draft 2019-09 and later: nested classes in
 * `$defs`), made from the reader's description only: types, nesting, required properties and the
 * limits (the keywords of contract-schema.ts). It says what validateContract says of a plain
 * value, except where JSON Schema has no word for a rule: a custom constraint without keywords
 * (Number(precision, scale) beyond its bounds, a joined length), a @ValidateIf condition (such a
 * property is described as anything), a @Transformed property (its rules are those of the
 * transformed value). Unknown properties are allowed: validateContract strips them.
 */
export interface ContractJsonSchema extends ContractSchema {
  $defs: Record<string, ContractSchema>;
}

/**
 * The rules that give a value its JSON type: the type checks, and the house's constraints that
 * refuse anything but one type (formats.ts, a carrier code: strings; catalog's option map: a
 * plain object).
 */
export const TYPE_RULES: Readonly<Record<string, string>> = {
  isString: 'string',
  isInt: 'integer',
  isNumber: 'number',
  isDecimal: 'number',
  isBoolean: 'boolean',
  isArray: 'array',
  isObject: 'object',
  isCountryCode: 'string',
  isCurrencyCode: 'string',
  isEmailAddress: 'string',
  isCalendarDate: 'string',
  isIsoDateTime: 'string',
  isZonedDateTime: 'string',
  isCarrierCode: 'string',
  isOptionMap: 'object',
};

/** The JSON type of an enum's values when they share one (a string enum), else undefined. */
function enumType(values: unknown[]): string | undefined {
  const types = new Set(values.map((value) => typeof value));
  if (types.size !== 1) return undefined;
  return types.has('string') ? 'string' : types.has('number') ? 'number' : undefined;
}

export function contractJsonSchema(cls: ContractClass): ContractJsonSchema {
  const defs: Record<string, ContractSchema> = {};
  const names = new Map<ContractClass, string>();
  const ref = (nested: ContractClass): ContractSchema => {
    let name = names.get(nested);
    if (name === undefined) {
      name = nested.name;
      for (let n = 2; name in defs; n++) name = `${nested.name}_${n}`;
      names.set(nested, name);
      defs[name] = {};
      defs[name] = objectSchema(nested, ref);
    }
    return { $ref: `#/$defs/${name}` };
  };
  return { ...objectSchema(cls, ref), $defs: defs };
}

type Ref = (nested: ContractClass) => ContractSchema;

function objectSchema(cls: ContractClass, ref: Ref): ContractSchema {
  // exposeDefaultValues: an absent property keeps its initializer's value.
  const defaults = new (cls as new () => Record<string, unknown>)();
  const properties: Record<string, ContractSchema> = {};
  const required: string[] = [];
  for (const property of describeContract(cls).properties) {
    properties[property.name] = propertySchema(property, ref);
    if (isRequired(cls, property, defaults)) required.push(property.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function conditional(property: ContractProperty): 'optional' | 'conditional' | undefined {
  const conditions = property.rules.filter((rule) => rule.kind === 'condition');
  if (conditions.length === 0) return undefined;
  return conditions.every((rule) => rule.name === 'isOptional') ? 'optional' : 'conditional';
}

/**
 * Whether the property is optional and nothing else (@IsOptional, no @ValidateIf): null passes it
 * whatever the rest of the value, and a client's request holding it is read as if the property
 * were left out (nullAsAbsent).
 */
export function isPlainOptional(property: ContractProperty): boolean {
  return conditional(property) === 'optional';
}

/**
 * Whether class-validator refuses the property when absent: it has no condition and no default,
 * and one of its constraints refuses undefined.
 */
function isRequired(
  cls: ContractClass,
  property: ContractProperty,
  defaults: Record<string, unknown>,
): boolean {
  if (conditional(property) || defaults[property.name] !== undefined) return false;
  return property.rules.some((rule) =>
    rule.validators.some((validator) => {
      if (validator.async) return false;
      const args: ValidationArguments = {
        targetName: cls.name,
        property: property.name,
        object: defaults,
        value: undefined,
        constraints: rule.constraints,
      };
      return !validator.validate(undefined, args);
    }),
  );
}

function propertySchema(property: ContractProperty, ref: Ref): ContractSchema {
  const condition = conditional(property);
  if (condition === 'conditional') return {};
  const schema: ContractSchema = {};
  const items: ContractSchema = {};
  for (const rule of property.rules) {
    const target = rule.each ? items : schema;
    const type = TYPE_RULES[rule.name];
    if (type) target.type = type;
    if (rule.name === 'isEnum') {
      target.enum = Object.values(rule.constraints[0] as object);
      const valuesType = enumType(target.enum as unknown[]);
      if (valuesType && target.type === undefined) target.type = valuesType;
    }
  }
  const nested = property.nestedType?.();
  if (nested) {
    const elementwise =
      schema.type === 'array' || property.rules.some((rule) => rule.kind === 'nested' && rule.each);
    if (elementwise) {
      schema.type = 'array';
      items.allOf = [ref(nested)];
    } else schema.allOf = [ref(nested)];
  }
  if (schema.type === 'array') schema.items = items;
  for (const rule of property.rules) applyContractRule(schema, rule);
  // @IsOptional: null and undefined skip every rule.
  return condition === 'optional' ? { anyOf: [{ type: 'null' }, schema] } : schema;
}
