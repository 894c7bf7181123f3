import { isDeepStrictEqual } from 'node:util';
import {
  ClassTransformOptions,
  TransformationType,
  instanceToPlain,
  plainToInstance,
} from 'class-transformer';
import { MAX_LENGTH, ValidationArguments } from 'class-validator';
import {
  ContractClass,
  ContractCondition,
  ContractRule,
  ContractTransform,
  describeContract,
} from './contract-metadata';

/**
 * A fast path for validateContract, for hot endpoints (ARCHITECTURE.md: class-validator spends
 * ≈ 90 µs on an order-sized DTO). The DTO classes stay the single source of truth: this reads the
 * same decorators (their description by contract-metadata.ts) and calls the very same
 * constraint functions, once compiled into a plan per class, without class-validator's executor
 * machinery (metadata lookups, error objects, an arguments object per check) on every call. One
 * constraint answers its common case before its function (shortcutOf: MaxLength).
 *
 * It only ever says "valid, here is the instance": an invalid body, or a class using a feature
 * the plan does not mirror (groups, `always`, async or promise validators, a @NestedType without
 * @ValidateNested, class-transformer's own decorators…), goes to class-validator, which gives the
 * verdict and the messages. So the plan must accept exactly what class-validator accepts and build
 * exactly what plainToInstance builds; under jest every call is checked against class-validator
 * (see validation.ts), so each contract spec doubles as a parity test.
 */

type Constructor = new () => object;
type AnyClass = ContractClass;
type Condition = ContractCondition;
type Transform = ContractTransform;

interface Check {
  validate(value: unknown, args: ValidationArguments): unknown;
  each: boolean;
  /**
   * The arguments the constraint function is called with, made once per check: each call sets
   * `object` and `value` (the functions read them during the call, none keeps them).
   */
  args: ValidationArguments;
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
  properties: PropertyPlan[];
}

interface ClassPlan extends ClassShape {
  /** plainToInstance, for a valid value (see generate). */
  build: (plain: Record<string, unknown>, options: ClassTransformOptions) => object;
  /** class-validator's verdict on a built instance (see generate). */
  accepts: (object: object) => boolean | undefined;
}

/** How validateContract calls plainToInstance, hence how the plans build. */
export const CONTRACT_TRANSFORM_OPTIONS: ClassTransformOptions = {
  enableImplicitConversion: false,
  exposeDefaultValues: true,
};

const PLAIN_TO_CLASS = TransformationType.PLAIN_TO_CLASS;
/** A check's `args.object` between calls. */
const NO_OBJECT = {};
const hasOwn = Object.prototype.hasOwnProperty;

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
  const description = describeContract(cls);
  if (description.properties.length === 0 || description.incomplete) return null;
  const prototype = (cls as { prototype: object }).prototype;
  const properties: PropertyPlan[] = [];
  for (const described of description.properties) {
    // plainToInstance will not set a property the prototype defines (a method, a getter).
    if (described.name in prototype) return null;
    const property: PropertyPlan = {
      name: described.name,
      conditions: [],
      checks: [],
      nested: false,
      type: described.nestedType?.() as Constructor | undefined,
      transforms: described.transforms,
    };
    for (const rule of described.rules) {
      if (rule.groups.length || rule.always !== undefined) return null;
      switch (rule.kind) {
        case 'condition':
          property.conditions.push(rule.constraints[0] as Condition);
          break;
        case 'defined':
        case 'constraint': {
          const checks = rule.validators
            // validateSync ignores asynchronous constraints.
            .filter((validator) => !validator.async)
            .map((validator) => ({
              validate: shortcutOf(rule, validator.validate),
              each: rule.each,
              args: {
                targetName: cls.name,
                property: described.name,
                object: NO_OBJECT,
                value: undefined,
                constraints: rule.constraints,
              },
            }));
          if (rule.kind === 'defined') property.checks.unshift(...checks);
          else property.checks.push(...checks);
          break;
        }
        case 'nested':
          property.nested = true;
          break;
        case 'allow':
          break;
        default:
          return null;
      }
    }
    if (property.nested !== (property.type !== undefined)) return null;
    properties.push(property);
  }
  const plan = generate(cls as Constructor, properties);
  return buildsLikePlainToInstance(plan) ? plan : null;
}

type ConstraintFunction = Check['validate'];

/**
 * A constraint's function, or one that answers the common case without it and calls it for the
 * rest. class-validator's MaxLength asks validator.js's isLength, which counts a string's length
 * less its surrogate pairs and variation selectors (two match arrays per string, empty or not):
 * that count is never above `string.length`, so a string no longer than the limit in UTF-16
 * units is within it.
 */
function shortcutOf(rule: ContractRule, validate: ConstraintFunction): ConstraintFunction {
  const max = rule.constraints[0];
  if (rule.name === MAX_LENGTH && typeof max === 'number')
    return (value, args) =>
      (typeof value === 'string' && value.length <= max) || validate(value, args);
  return validate;
}

/** Values a plan is tried on (for a property with a nested type, the ones that are not objects). */
const PROBES: unknown[] = [{}, [{}], null, ' 2 ', true];

/**
 * Whether the plan builds what plainToInstance builds, on each probe value in every property, and
 * class-transformer exposes each property under its own name. The description knows the
 * contracts' transformation decorators (@NestedType, @Transformed), not class-transformer's own
 * (@Type, @Transform, @Expose, @Exclude): a class using them would build otherwise (a prototype, a
 * transformed value, a property left out or renamed), and is left to class-validator. A
 * once-per-class check, when the plan is compiled.
 */
function buildsLikePlainToInstance(plan: ClassPlan): boolean {
  for (const probe of PROBES) {
    const plain: Record<string, unknown> = {};
    for (const property of plan.properties)
      plain[property.name] =
        property.type && probe !== null && typeof probe === 'object' ? ' 2 ' : probe;
    try {
      const built = plan.build(plain, CONTRACT_TRANSFORM_OPTIONS);
      const expected = plainToInstance(plan.cls, plain, CONTRACT_TRANSFORM_OPTIONS);
      if (!sameContractValue(built, expected)) return false;
      const names = Object.keys(built).sort();
      if (!isDeepStrictEqual(Object.keys(instanceToPlain(built)).sort(), names)) return false;
    } catch {
      return false;
    }
  }
  return true;
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
  const shape: ClassShape = { cls, properties };
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
        `verdict = runCheck(c${i}_${j}, object, value); if (verdict !== true) return verdict;`,
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

function runCheck(check: Check, object: object, value: unknown): boolean | undefined {
  const args = check.args;
  args.object = object;
  args.value = value;
  const verdict = judge(check, value, args);
  // The plan holds no request's data once its answer is given.
  args.object = NO_OBJECT;
  args.value = undefined;
  return verdict;
}

function judge(check: Check, value: unknown, args: ValidationArguments): boolean | undefined {
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
