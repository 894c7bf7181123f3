import { Transform, TransformFnParams, Type } from 'class-transformer';
import { ValidationArguments, ValidationTypes, getMetadataStorage } from 'class-validator';

/**
 * The one reader of the contracts' validation metadata: what the decorators of a contract class
 * say, as a small typed description. Everything that needs the rules at run time reads them here:
 * the validation fast path (compiled-validation.ts), the JSON Schema keywords of the documents
 * (contract-schema.ts) and the complete JSON Schema of a contract (contract-json-schema.ts).
 * Nothing else reads class-validator's metadata storage or the transformation
 * metadata.
 *
 * The transformation metadata is the contracts' own: @NestedType and @Transformed (below) record
 * it here and apply class-transformer's @Type and @Transform, so that plainToInstance builds the
 * same instances. (class-transformer keeps its metadata in a private module.) class-transformer's
 * decorators are not used on contracts (eslint: no-restricted-imports); on a class that does use
 * them, compiled-validation.ts sees its plan build another value than plainToInstance and leaves
 * the class to class-validator.
 */

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- how the metadata stores key classes
export type ContractClass = Function;

/** A @ValidateIf or @IsOptional condition: the property's rules apply when it holds. */
export type ContractCondition = (object: object, value: unknown) => unknown;

/** A transformation of a property's plain value (class-transformer's @Transform function). */
export type ContractTransform = (params: TransformFnParams) => unknown;

/** A constraint's validator (class-validator's ValidatorConstraintInterface). */
export interface ContractValidator {
  validate(value: unknown, args: ValidationArguments): unknown;
  /** validateSync ignores asynchronous validators. */
  async: boolean;
}

/**
 * What a rule is: a condition (@ValidateIf, @IsOptional), @IsDefined, any other constraint
 * (@IsString, @MaxLength(…), the contracts' own), @ValidateNested, @Allow (whitelist), or a kind
 * the readers do not mirror (@ValidatePromise), which the fast path refuses.
 */
export type ContractRuleKind =
  'condition' | 'defined' | 'constraint' | 'nested' | 'allow' | 'other';

export interface ContractRule {
  kind: ContractRuleKind;
  /** The decorator's name (`maxLength`, `isOptional`…), or class-validator's type when it has none. */
  name: string;
  /** The decorator's arguments (a condition's function for a condition). */
  constraints: unknown[];
  /** `each: true`: the rule applies to each element of an array, set or map. */
  each: boolean;
  groups: readonly string[];
  always: boolean | undefined;
  /** The validators of a `defined` or `constraint` rule, in class-validator's order. */
  validators: ContractValidator[];
}

export interface ContractProperty {
  name: string;
  /** The property's rules, in class-validator's order. */
  rules: ContractRule[];
  /** The class its nested objects are built as (@NestedType), when it has one. */
  nestedType: (() => ContractClass) | undefined;
  /** Its plain → instance transformations (@Transformed), in the order class-transformer applies them. */
  transforms: ContractTransform[];
}

export interface ContractDescription {
  cls: ContractClass;
  /** The validated properties, in the order of their first rule (inherited ones included). */
  properties: ContractProperty[];
  /** Why the description may not say everything the rules do; undefined when it does. */
  incomplete: string | undefined;
}

const KINDS: Record<string, ContractRuleKind> = {
  [ValidationTypes.CONDITIONAL_VALIDATION]: 'condition',
  [ValidationTypes.IS_DEFINED]: 'defined',
  [ValidationTypes.CUSTOM_VALIDATION]: 'constraint',
  [ValidationTypes.NESTED_VALIDATION]: 'nested',
  [ValidationTypes.WHITELIST]: 'allow',
};

type PropertyRecords<T> = Map<ContractClass, Map<string, T>>;

const nestedTypes: PropertyRecords<() => ContractClass> = new Map();
const transformations: PropertyRecords<ContractTransform[]> = new Map();

function propertyKey(key: string | symbol): string {
  if (typeof key !== 'string') throw new Error('contract properties are named by strings');
  return key;
}

/**
 * The class a property's nested objects (or array elements) are built as: class-transformer's
 * @Type(() => X), recorded for the readers.
 */
export function NestedType(typeFunction: () => ContractClass): PropertyDecorator {
  const type = Type(typeFunction);
  return (target, key) => {
    type(target, key);
    const records = nestedTypes.get(target.constructor) ?? new Map<string, () => ContractClass>();
    records.set(propertyKey(key), typeFunction);
    nestedTypes.set(target.constructor, records);
  };
}

/**
 * A transformation of a property's plain value, both ways: class-transformer's @Transform(fn),
 * recorded for the readers.
 */
export function Transformed(transform: ContractTransform): PropertyDecorator {
  const decorator = Transform(transform);
  return (target, key) => {
    decorator(target, key);
    const records =
      transformations.get(target.constructor) ?? new Map<string, ContractTransform[]>();
    const name = propertyKey(key);
    records.set(name, [...(records.get(name) ?? []), transform]);
    transformations.set(target.constructor, records);
  };
}

/** Its base classes, the nearest first (class-transformer's MetadataStorage.getAncestors). */
function ancestorsOf(cls: ContractClass): ContractClass[] {
  const ancestors: ContractClass[] = [];
  for (
    let base = Object.getPrototypeOf(cls) as ContractClass;
    typeof base.prototype !== 'undefined';
    base = Object.getPrototypeOf(base) as ContractClass
  )
    ancestors.push(base);
  return ancestors;
}

/** A property's nested type: its own, else its nearest base class's (findTypeMetadata). */
function nestedTypeOf(cls: ContractClass, property: string): (() => ContractClass) | undefined {
  for (const owner of [cls, ...ancestorsOf(cls)]) {
    const typeFunction = nestedTypes.get(owner)?.get(property);
    if (typeFunction) return typeFunction;
  }
  return undefined;
}

/**
 * A property's transformations in class-transformer's order (findTransformMetadatas): the base
 * classes' ones, the farthest first, then its own; each class's in reverse order of decoration,
 * i.e. top to bottom.
 */
function transformsOf(cls: ContractClass, property: string): ContractTransform[] {
  const inherited = ancestorsOf(cls).flatMap(
    (ancestor) => transformations.get(ancestor)?.get(property) ?? [],
  );
  const own = transformations.get(cls)?.get(property) ?? [];
  return [...inherited.reverse(), ...[...own].reverse()];
}

/** What the decorators of a contract class say (its inherited ones included). */
export function describeContract(cls: ContractClass): ContractDescription {
  const validation = getMetadataStorage();
  const byProperty = new Map<string, ContractProperty>();
  let incomplete: string | undefined;
  for (const metadata of validation.getTargetValidationMetadatas(
    cls,
    '',
    false,
    false,
    undefined,
  )) {
    if (typeof metadata.target === 'string') incomplete ??= 'a rule of a validation schema';
    let property = byProperty.get(metadata.propertyName);
    if (!property) {
      property = {
        name: metadata.propertyName,
        rules: [],
        nestedType: nestedTypeOf(cls, metadata.propertyName),
        transforms: transformsOf(cls, metadata.propertyName),
      };
      byProperty.set(metadata.propertyName, property);
    }
    const kind = KINDS[metadata.type] ?? 'other';
    property.rules.push({
      kind,
      name: metadata.name ?? metadata.type,
      constraints: metadata.constraints ?? [],
      each: metadata.each,
      groups: metadata.groups ?? [],
      always: metadata.always,
      validators:
        kind === 'defined' || kind === 'constraint'
          ? validation.getTargetValidatorConstraints(metadata.constraintCls).map((constraint) => {
              const instance = constraint.instance;
              return {
                validate: instance.validate.bind(instance),
                async: constraint.async,
              };
            })
          : [],
    });
  }
  return { cls, properties: [...byProperty.values()], incomplete };
}
