import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  minimalCalculateFreight,
  minimalCalculateOrder,
  minimalInbound,
  minimalLabel,
  minimalOrder,
  minimalProduct,
  validCalculateFreight,
  validCalculateOrder,
  validInbound,
  validLabel,
  validOrder,
  validProduct,
} from '@consign/testing/fixtures';
import { CreateProductCommand } from '../bus/catalog.commands';
import { CreateInboundCommand } from '../bus/inbound.commands';
import { CreateLabelCommand } from '../bus/label.commands';
import { CreateOrderCommand } from '../bus/order.commands';
import { CalculateFreightCommand, CalculateOrderCommand } from '../bus/rating.commands';
import { CreateProductRequest } from '../catalog/create-product-request.dto';
import { CreateInboundRequest } from '../inbound/create-inbound-request.dto';
import { CreateLabelRequest } from '../label/create-label-request.dto';
import { CreateOrderRequest } from '../order/create-order-request.dto';
import { CalculateFreightRequest } from '../rating/calculate-freight-request.dto';
import { CalculateOrderRequest } from '../rating/calculate-order-request.dto';
import { ContractClass, describeContract } from './contract-metadata';
import { contractJsonSchema } from './contract-json-schema';
import { ContractSchema } from './contract-schema';
import { validateContract } from './validation';

type Plain = Record<string, unknown>;

/** The gateway's request bodies and the bus commands that carry them, with valid fixtures. */
const CASES: [ContractClass, () => Plain][] = [
  [CreateProductRequest, validProduct],
  [CreateProductRequest, minimalProduct],
  [CreateOrderRequest, validOrder],
  [CreateOrderRequest, minimalOrder],
  [CreateLabelRequest, validLabel],
  [CreateLabelRequest, minimalLabel],
  [CalculateOrderRequest, validCalculateOrder],
  [CalculateOrderRequest, minimalCalculateOrder],
  [CalculateFreightRequest, validCalculateFreight],
  [CalculateFreightRequest, minimalCalculateFreight],
  [CreateInboundRequest, validInbound],
  [CreateInboundRequest, minimalInbound],
  [CreateProductCommand, () => ({ merchant_id: 7, product: validProduct() })],
  [CreateOrderCommand, () => ({ merchant_id: 7, order: validOrder() })],
  [CreateLabelCommand, () => ({ merchant_id: 7, label: validLabel() })],
  [CalculateOrderCommand, () => ({ merchant_id: 7, request: validCalculateOrder() })],
  [CalculateFreightCommand, () => ({ merchant_id: 7, request: validCalculateFreight() })],
  [CreateInboundCommand, () => ({ merchant_id: 7, inbound: validInbound() })],
] as [ContractClass, () => Plain][];

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);

function resolve(schema: ContractSchema, root: ContractSchema): ContractSchema {
  const target = schema.allOf?.[0] as ContractSchema | undefined;
  if (target?.$ref)
    return (root.$defs as Record<string, ContractSchema>)[target.$ref.replace('#/$defs/', '')];
  return schema;
}

/**
 * Invalid variants of a valid value, made from the schema: each required property left out, each
 * typed property given a value of another type, each string one character too long, each enum
 * given another value, each bounded list emptied or given one item too many, each integer made a
 * fraction; at every depth of the value (the first element of an array).
 */
function variants(
  cls: ContractClass,
  value: Plain,
  schema: ContractSchema,
  root: ContractSchema,
  path: string,
): [string, (copy: Plain) => void][] {
  const out: [string, (copy: Plain) => void][] = [];
  const described = new Map(describeContract(cls).properties.map((p) => [p.name, p]));
  const at = (copy: Plain): Plain =>
    path
      .split('.')
      .filter(Boolean)
      .reduce<Plain>((node, key) => node[key] as Plain, copy);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const info = described.get(name);
    // Transformed values and conditions are beyond JSON Schema (see contractJsonSchema).
    if (!info || info.transforms.length || property.anyOf || !property.type) continue;
    const where = path ? `${path}.${name}` : name;
    if (schema.required?.includes(name))
      out.push([`${where} left out`, (copy) => delete at(copy)[name]]);
    const other = property.type === 'string' ? 12345 : 'text';
    out.push([`${where} of another type`, (copy) => (at(copy)[name] = other)]);
    if (property.type === 'string' && typeof property.maxLength === 'number')
      out.push([
        `${where} too long`,
        (copy) => (at(copy)[name] = 'x'.repeat((property.maxLength as number) + 1)),
      ]);
    if (Array.isArray(property.enum))
      out.push([`${where} not one of its values`, (copy) => (at(copy)[name] = 'none of them')]);
    if (typeof property.minItems === 'number' && property.minItems > 0)
      out.push([`${where} empty`, (copy) => (at(copy)[name] = [])]);
    if (typeof property.maxItems === 'number')
      out.push([
        `${where} one item too many`,
        (copy) => {
          const items = at(copy)[name];
          if (Array.isArray(items) && items.length)
            at(copy)[name] = Array.from({ length: (property.maxItems as number) + 1 }, () =>
              structuredClone(items[0]),
            );
        },
      ]);
    if (property.type === 'integer')
      out.push([`${where} a fraction`, (copy) => (at(copy)[name] = 1.5)]);
    const child = value[name];
    const nested = info.nestedType?.();
    if (!nested || child === undefined || child === null) continue;
    if (Array.isArray(child)) {
      if (child.length && property.items)
        out.push(
          ...variants(nested, child[0] as Plain, resolve(property.items, root), root, `${where}.0`),
        );
    } else out.push(...variants(nested, child as Plain, resolve(property, root), root, where));
  }
  return out;
}

describe('contractJsonSchema', () => {
  describe.each(
    CASES.map(([cls, fixture]) => [cls.name, fixture.name || 'valid', cls, fixture] as const),
  )('%s (%s)', (_name, _fixture, cls, fixture) => {
    const schema = contractJsonSchema(cls);
    const validate = ajv.compile(schema);

    it('accepts the valid fixture, as validateContract does', () => {
      const value = fixture();
      expect(validateContract(cls as new () => object, value).ok).toBe(true);
      expect([validate(value), validate.errors]).toEqual([true, null]);
    });

    const cases = variants(cls, fixture(), schema, schema, '');
    it.each(cases)('judges %s as validateContract does', (_title, change) => {
      const value = structuredClone(fixture());
      change(value);
      const ok = validateContract(cls as new () => object, value).ok;
      expect([validate(value), ok]).toEqual([ok, ok]);
    });
  });
});
