import { ContractClass, describeContract } from './contract-metadata';

/** What nullAsAbsent looks at in a class's values. */
interface NullPlan {
  /** The properties with a condition (@IsOptional, @ValidateIf): null may skip their rules. */
  conditional: string[];
  /** The properties holding nested contract objects (or arrays of them), with their class. */
  nested: [string, ContractClass][];
}

const plans = new Map<ContractClass, NullPlan>();

function planOf(cls: ContractClass): NullPlan {
  let plan = plans.get(cls);
  if (!plan) {
    const { properties } = describeContract(cls);
    plan = {
      conditional: properties
        .filter((property) => property.rules.some((rule) => rule.kind === 'condition'))
        .map((property) => property.name),
      nested: properties.flatMap((property): [string, ContractClass][] => {
        const nested = property.nestedType?.();
        return nested ? [[property.name, nested]] : [];
      }),
    };
    plans.set(cls, plan);
  }
  return plan;
}

/**
 * A client's validated request with each optional property given as null removed, as if it had
 * been left out, in nested objects and arrays of them too; the value is changed in place and
 * returned. @IsOptional lets null skip every rule, and the services read an optional field as
 * absent or a value: a null once reached the label renderer (`.trim()` of null, a 500), and an
 * order's `service.warehouse_code: null` was refused as "null is not a warehouse you can use".
 * Only for what clients send: in the bus's events a null can mean something (`previous_status`).
 */
export function nullAsAbsent<T extends object>(cls: ContractClass, value: T): T {
  const plan = planOf(cls);
  const record = value as Record<string, unknown>;
  for (const name of plan.conditional) if (record[name] === null) delete record[name];
  for (const [name, nested] of plan.nested) {
    const held = record[name];
    const objects = Array.isArray(held) ? (held as unknown[]) : [held];
    for (const object of objects)
      if (object !== null && typeof object === 'object') nullAsAbsent(nested, object);
  }
  return value;
}
