import { TransformFnParams, TransformationType } from 'class-transformer';
import type { MetadataStorage as TransformerMetadataStorage } from 'class-transformer/types/MetadataStorage';
import { ValidationArguments, ValidationTypes, getMetadataStorage } from 'class-validator';

/**
 * The one reader of the contracts' validation metadata: what the decorators of a contract class
 * say, as a small typed description. Everything that needs the rules at run time reads them here:
 * the validation fast path (compiled-validation.ts) and the JSON Schema keywords of the documents
 * (contract-schema.ts). Nothing else reads class-validator's metadata storage or the transformation
 * metadata.
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
 * the readers do not know (@ValidateDefined by schema, promise validation…).
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
  /** The class its nested objects are built as (@Type), when it has one. */
  nestedType: (() => ContractClass) | undefined;
  /** Its plain → instance transformations, in the order class-transformer applies them. */
  transforms: ContractTransform[];
}

export interface ContractDescription {
  cls: ContractClass;
  /** The validated properties, in the order of their first rule (inherited ones included). */
  properties: ContractProperty[];
  /**
   * Why the description may not say everything the decorators do (transformation metadata it
   * does not describe: exposure rules, discriminators…); undefined when it does.
   */
  incomplete: string | undefined;
}

const KINDS: Record<string, ContractRuleKind> = {
  [ValidationTypes.CONDITIONAL_VALIDATION]: 'condition',
  [ValidationTypes.IS_DEFINED]: 'defined',
  [ValidationTypes.CUSTOM_VALIDATION]: 'constraint',
  [ValidationTypes.NESTED_VALIDATION]: 'nested',
  [ValidationTypes.WHITELIST]: 'allow',
};

// class-transformer keeps its decorator metadata here; it exports no accessor for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const transformerModule = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerMetadataStorage;
};
const transformerStorage = transformerModule.defaultMetadataStorage;

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
        nestedType: undefined,
        transforms: [],
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

  if (transformerStorage.getStrategy(cls) !== 'none') incomplete ??= 'an exposure strategy';
  if (
    transformerStorage.getExposedMetadatas(cls).length ||
    transformerStorage.getExcludedMetadatas(cls).length
  )
    incomplete ??= '@Expose or @Exclude';
  for (const property of byProperty.values()) {
    const type = transformerStorage.findTypeMetadata(cls, property.name);
    if (type) {
      if (type.options?.discriminator || !type.typeFunction || type.typeFunction.length > 0)
        incomplete ??= `a @Type of ${property.name} with options`;
      else property.nestedType = type.typeFunction as () => ContractClass;
    }
    property.transforms = transformerStorage
      .findTransformMetadatas(cls, property.name, TransformationType.PLAIN_TO_CLASS)
      .filter((transform) => !transform.options?.groups?.length)
      .map((transform) => transform.transformFn);
  }
  return { cls, properties: [...byProperty.values()], incomplete };
}
