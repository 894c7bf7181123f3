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
type Condition = (object: object, value: unknown) => unknown;
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

interface ClassShape {
  cls: Constructor;
  /** `constructor.name`, read once (the getter is slow): ValidationArguments.targetName. */
  name: string;
  properties: PropertyPlan[];
}

interface ClassPlan extends ClassShape {
  /** plainToInstance, for a valid value (see generate). */
  build: (plain: Record<string, unknown>, options: ClassTransformOptions) => object;
  /** class-validator's verdict on a built instance (see generate). */
  accepts: (object: object) => boolean | undefined;
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
  const value = plan.build(plain as Record<string, unknown>, options);
  return plan.accepts(value) === true ? (value as T) : undefined;
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
  return generate(cls as Constructor, [...byProperty.values()]);
}

/**
 * The plan with its two functions written out for its properties, in their order, each property
 * read at a site of its own (V8 then reads it as a known field, not by a lookup on a key that
 * every class shares: ≈ 2× faster than a loop over the properties). The only text from the
 * classes in the code: property names, as JSON string literals (valid JavaScript string
 * literals); everything else is reached through closure variables.
 *
 * `build`: plainToInstance for the properties class-validator keeps (it strips the others): a
 * new instance (its initializers are the defaults), each property present in the plain object
 * built (nested @Type classes, arrays element by element) and transformed. An undefined value
 * keeps the default, as an own property (exposeDefaultValues); a transform's undefined is set
 * (exposeUnsetFields).
 *
 * `accepts`: class-validator's verdict on a built instance (ValidationExecutor.execute with
 * whitelist and forbidUnknownValues): true when valid, false when not, undefined when the plan
 * cannot tell. Per property: its @ValidateIf conditions, then its checks, then the nested
 * validation; the first verdict that is not true is the answer.
 */
function generate(cls: Constructor, properties: PropertyPlan[]): ClassPlan {
  const shape: ClassShape = { cls, name: cls.name, properties };
  const setup: string[] = [];
  const builds: string[] = [];
  const checks: string[] = [];
  properties.forEach((property, i) => {
    const key = JSON.stringify(property.name);
    setup.push(`const p${i} = shape.properties[${i}];`);
    const steps: string[] = [];
    if (property.type) steps.push(`value = buildNested(p${i}.type, value, options);`);
    property.transforms.forEach((_transform, j) => {
      setup.push(`const t${i}_${j} = p${i}.transforms[${j}];`);
      steps.push(
        `value = t${i}_${j}({ value, key: ${key}, obj: plain, type: PLAIN_TO_CLASS, options });`,
      );
    });
    builds.push(
      `if (hasOwn.call(plain, ${key})) {`,
      `  value = plain[${key}];`,
      `  if (value === undefined) instance[${key}] = instance[${key}];`,
      `  else {`,
      ...steps.map((step) => `    ${step}`),
      `    instance[${key}] = value;`,
      `  }`,
      `}`,
    );
    property.conditions.forEach((_condition, j) =>
      setup.push(`const w${i}_${j} = p${i}.conditions[${j}];`),
    );
    const holds = property.conditions.map((_condition, j) => `w${i}_${j}(object, value)`);
    const body: string[] = [];
    property.checks.forEach((_check, j) => {
      setup.push(`const c${i}_${j} = p${i}.checks[${j}];`);
      body.push(
        `verdict = runCheck(shape, c${i}_${j}, object, value); if (verdict !== true) return verdict;`,
      );
    });
    if (property.nested)
      body.push(`verdict = nestedAccepts(value); if (verdict !== true) return verdict;`);
    checks.push(`value = object[${key}];`);
    if (body.length)
      checks.push(`if (${holds.length ? holds.join(' && ') : 'true'}) {`, ...body, `}`);
  });
  const source = [
    ...setup,
    `return {`,
    `  build(plain, options) {`,
    `    const instance = new shape.cls();`,
    `    let value;`,
    ...builds.map((line) => `    ${line}`),
    `    return instance;`,
    `  },`,
    `  accepts(object) {`,
    `    let value, verdict;`,
    ...checks.map((line) => `    ${line}`),
    `    return true;`,
    `  },`,
    `};`,
  ].join('\n');
  const factory = new Function(
    'shape',
    'hasOwn',
    'buildNested',
    'runCheck',
    'nestedAccepts',
    'PLAIN_TO_CLASS',
    source,
  ) as (
    classShape: ClassShape,
    own: typeof hasOwn,
    nested: typeof buildNested,
    check: typeof runCheck,
    nestedCheck: typeof nestedAccepts,
    plainToClass: TransformationType,
  ) => Pick<ClassPlan, 'build' | 'accepts'>;
  return {
    ...shape,
    ...factory(shape, hasOwn, buildNested, runCheck, nestedAccepts, PLAIN_TO_CLASS),
  };
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
  return plan ? plan.build(value as Record<string, unknown>, options) : value;
}

function runCheck(
  plan: ClassShape,
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
  return plan && plan.cls === value.constructor ? plan.accepts(value) : undefined;
}
