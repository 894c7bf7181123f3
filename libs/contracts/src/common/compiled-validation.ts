import { isDeepStrictEqual } from 'node:util';
import {
  ClassTransformOptions,
  TransformFnParams,
  TransformationType,
  TypeMetadata,
} from 'class-transformer';
import type { MetadataStorage as TransformerMetadataStorage } from 'class-transformer/types/MetadataStorage';
import { ValidationArguments, ValidationTypes, getMetadataStorage } from 'class-validator';

/**
 * A fast path for validateContract, for hot endpoints (ARCHITECTURE.md: class-validator spends
 * ≈ 90 µs on an order-sized DTO). The DTO classes stay the single source of truth: this reads the
 * same decorators (class-validator's and class-transformer's metadata) and calls the very same
 * constraint functions, once compiled into a plan per class, without class-validator's executor
 * machinery (metadata lookups, error objects) on every call.
 *
 * It only ever says "valid, here is the instance": an invalid body, or a class using a feature
 * the plan does not mirror (groups, `always`, async or promise validators, @Expose/@Exclude,
 * discriminators, a @Type without @ValidateNested…), goes to class-validator, which gives the
 * verdict and the messages. So the plan must accept exactly what class-validator accepts and build
 * exactly what plainToInstance builds; under jest every call is checked against class-validator
 * (see validation.ts), so each contract spec doubles as a parity test.
 */

type Constructor = new () => object;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- how both metadata stores key classes
type AnyClass = Function;
type Condition = (object: object, value: unknown) => boolean;
type Transform = (params: TransformFnParams) => unknown;

interface Check {
  validate(value: unknown, args: ValidationArguments): unknown;
  each: boolean;
  property: string;
  constraints: unknown[];
}

interface PropertyPlan {
  name: string;
  conditions: Condition[];
  /** IsDefined checks, then the other constraints: class-validator's order. */
  checks: Check[];
  /** Whether @ValidateNested applies (the value's own class is validated). */
  nested: boolean;
  /** The @Type class nested objects are built as. */
  type: Constructor | undefined;
  transforms: Transform[];
}

interface ClassPlan {
  cls: Constructor;
  /** `constructor.name`, read once (the getter is slow): ValidationArguments.targetName. */
  name: string;
  properties: PropertyPlan[];
}

const PLAIN_TO_CLASS = TransformationType.PLAIN_TO_CLASS;
const hasOwn = Object.prototype.hasOwnProperty;

// class-transformer keeps its decorator metadata here; it exports no accessor for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
const transformerModule = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: TransformerMetadataStorage;
};
const transformerStorage = transformerModule.defaultMetadataStorage;

const plans = new Map<AnyClass, ClassPlan | null>();

/** The compiled plan of a class, or null when it uses something the plan does not mirror. */
export function compiledPlanOf(cls: AnyClass): ClassPlan | null {
  let plan = plans.get(cls);
  if (plan === undefined) {
    plan = compile(cls);
    plans.set(cls, plan);
  }
  return plan;
}

/** Whether the fast path can validate a class (a class the plan cannot mirror is always slow). */
export function hasCompiledValidation(cls: AnyClass): boolean {
  return compiledPlanOf(cls) !== null;
}

/**
 * The instance plainToInstance(cls, plain) would build, when class-validator would accept it;
 * undefined when it would not, or when the fast path cannot tell.
 */
export function validateCompiled<T extends object>(
  cls: new () => T,
  plain: object,
  options: ClassTransformOptions,
): T | undefined {
  const plan = compiledPlanOf(cls);
  if (!plan) return undefined;
  const value = build(plan, plain as Record<string, unknown>, options);
  return accepts(plan, value) === true ? (value as T) : undefined;
}

/** Two values equal the way the fast path must equal plainToInstance: prototypes included. */
export function sameContractValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

function compile(cls: AnyClass): ClassPlan | null {
  const validation = getMetadataStorage();
  const metadatas = validation.getTargetValidationMetadatas(cls, '', false, false, undefined);
  if (metadatas.length === 0) return null;
  const strategy = transformerStorage.getStrategy(cls);
  if (strategy !== 'none') return null;
  if (
    transformerStorage.getExposedMetadatas(cls).length ||
    transformerStorage.getExcludedMetadatas(cls).length
  )
    return null;

  const byProperty = new Map<string, PropertyPlan>();
  for (const metadata of metadatas) {
    if (metadata.groups?.length || metadata.always !== undefined) return null;
    if (typeof metadata.target === 'string') return null;
    let property = byProperty.get(metadata.propertyName);
    if (!property) {
      property = {
        name: metadata.propertyName,
        conditions: [],
        checks: [],
        nested: false,
        type: undefined,
        transforms: [],
      };
      byProperty.set(metadata.propertyName, property);
    }
    switch (metadata.type) {
      case ValidationTypes.CONDITIONAL_VALIDATION:
        property.conditions.push(metadata.constraints[0] as Condition);
        break;
      case ValidationTypes.IS_DEFINED:
      case ValidationTypes.CUSTOM_VALIDATION: {
        const checks = validation
          .getTargetValidatorConstraints(metadata.constraintCls)
          // validateSync ignores asynchronous constraints.
          .filter((constraint) => !constraint.async)
          .map((constraint) => ({
            validate: constraint.instance.validate.bind(constraint.instance),
            each: metadata.each,
            property: metadata.propertyName,
            constraints: metadata.constraints,
          }));
        if (metadata.type === ValidationTypes.IS_DEFINED) property.checks.unshift(...checks);
        else property.checks.push(...checks);
        break;
      }
      case ValidationTypes.NESTED_VALIDATION:
        property.nested = true;
        break;
      case ValidationTypes.WHITELIST:
        break;
      default:
        return null;
    }
  }

  const prototype = (cls as { prototype: object }).prototype;
  for (const property of byProperty.values()) {
    // plainToInstance will not set a property the prototype defines (a method, a getter).
    if (property.name in prototype) return null;
    const type: TypeMetadata | undefined = transformerStorage.findTypeMetadata(cls, property.name);
    if (type) {
      if (type.options?.discriminator || !type.typeFunction || type.typeFunction.length > 0)
        return null;
      property.type = type.typeFunction() as Constructor;
    }
    if (property.nested !== (property.type !== undefined)) return null;
    property.transforms = transformerStorage
      .findTransformMetadatas(cls, property.name, TransformationType.PLAIN_TO_CLASS)
      .filter((transform) => !transform.options?.groups?.length)
      .map((transform) => transform.transformFn);
  }
  return { cls: cls as Constructor, name: cls.name, properties: [...byProperty.values()] };
}

/**
 * plainToInstance for the properties class-validator keeps (it strips the others): a new
 * instance (its initializers are the defaults), each property present in the plain object built
 * (nested @Type classes, arrays element by element) and transformed. An undefined value keeps the
 * default (exposeDefaultValues); a transform's undefined is set (exposeUnsetFields).
 */
function build(
  plan: ClassPlan,
  plain: Record<string, unknown>,
  options: ClassTransformOptions,
): object {
  const instance = new plan.cls() as Record<string, unknown>;
  for (const property of plan.properties) {
    const { name } = property;
    if (!hasOwn.call(plain, name)) continue;
    let value = plain[name];
    if (value === undefined) {
      // Keeps the default, but as an own property, as class-transformer leaves it.
      const defaultValue = instance[name];
      instance[name] = defaultValue;
      continue;
    }
    if (property.type) value = buildNested(property.type, value, options);
    for (const transform of property.transforms)
      value = transform({
        value,
        key: name,
        obj: plain,
        type: PLAIN_TO_CLASS,
        options,
      });
    instance[name] = value;
  }
  return instance;
}

function buildNested(type: Constructor, value: unknown, options: ClassTransformOptions): unknown {
  if (Array.isArray(value)) return value.map((item) => buildNested(type, item, options));
  if (
    value === null ||
    typeof value !== 'object' ||
    typeof (value as { then?: unknown }).then === 'function'
  )
    return value;
  const plan = compiledPlanOf(type);
  // A nested class the plan cannot mirror: leave it; accepts() will not vouch for it.
  return plan ? build(plan, value as Record<string, unknown>, options) : value;
}

/**
 * class-validator's verdict on a built instance (ValidationExecutor.execute with whitelist and
 * forbidUnknownValues): true when valid, false when not, undefined when the plan cannot tell.
 */
function accepts(plan: ClassPlan, object: object): boolean | undefined {
  for (const property of plan.properties) {
    const value = (object as Record<string, unknown>)[property.name];
    if (!conditionsHold(property.conditions, object, value)) continue;
    for (const check of property.checks) {
      const verdict = runCheck(plan, check, object, value);
      if (verdict !== true) return verdict;
    }
    if (property.nested) {
      const verdict = nestedAccepts(value);
      if (verdict !== true) return verdict;
    }
  }
  return true;
}

function conditionsHold(conditions: Condition[], object: object, value: unknown): boolean {
  for (const condition of conditions) if (!condition(object, value)) return false;
  return true;
}

function runCheck(
  plan: ClassPlan,
  check: Check,
  object: object,
  value: unknown,
): boolean | undefined {
  const args: ValidationArguments = {
    targetName: plan.name,
    property: check.property,
    object,
    value,
    constraints: check.constraints,
  };
  if (!check.each || !(Array.isArray(value) || value instanceof Set || value instanceof Map))
    return verdictOf(check.validate(value, args));
  if (!Array.isArray(value)) return undefined;
  for (const item of value) {
    const verdict = verdictOf(check.validate(item, args));
    if (verdict !== true) return verdict;
  }
  return true;
}

function verdictOf(result: unknown): boolean | undefined {
  if (result !== null && typeof (result as { then?: unknown })?.then === 'function')
    return undefined;
  return Boolean(result);
}

/** ValidationExecutor.nestedValidations: undefined passes; arrays element by element. */
function nestedAccepts(value: unknown): boolean | undefined {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (const item of value) {
      const verdict = nestedAccepts(item);
      if (verdict !== true) return verdict;
    }
    return true;
  }
  if (value instanceof Set || value instanceof Map) return undefined;
  if (!(value instanceof Object)) return false;
  // class-validator validates a nested object by its own class's decorators.
  const plan = compiledPlanOf(value.constructor);
  return plan && plan.cls === value.constructor ? accepts(plan, value) : undefined;
}
