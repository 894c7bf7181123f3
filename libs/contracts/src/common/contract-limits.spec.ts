import 'reflect-metadata';
import * as contracts from '../index';
import { ContractClass, describeContract } from './contract-metadata';

/**
 * ARCHITECTURE.md: every string has a maximum length (the spec's, or a documented house limit),
 * every integer a maximum (MAX_ID for an id: a larger one once reached the database as `1e+300`
 * and answered 500), array sizes are bounded, and nested lists hold objects (class-validator's nested validation
 * accepts an array of arrays, which once let `sku_items: [[], []]` reach the database). Checked
 * over every class of the contracts that has validation rules: requests, commands and events.
 */
const BOUNDS_A_STRING = new Set([
  'maxLength',
  'isLength',
  'isIn',
  'isEnum',
  'isCountryCode',
  'isCurrencyCode',
  'isCalendarDate',
  'isIsoDateTime',
  'isZonedDateTime',
  'isCarrierCode',
  'maxJoinedLength',
]);

function rulesByProperty(cls: ContractClass): Map<string, { name: string; each: boolean }[]> {
  return new Map(
    describeContract(cls).properties.map(({ name, rules }) => [
      name,
      rules.map((rule) => ({ name: rule.name, each: rule.each ?? false })),
    ]),
  );
}

const validated = Object.entries(contracts as Record<string, unknown>).filter(
  ([name, value]) =>
    typeof value === 'function' && /^[A-Z]/.test(name) && rulesByProperty(value).size > 0,
);

describe('contract limits', () => {
  it('finds the contract classes', () => {
    expect(validated.map(([name]) => name)).toEqual(
      expect.arrayContaining(['CreateOrderRequest', 'CreateLabelRequest', 'CarrierEventsRequest']),
    );
  });

  describe.each(validated)('%s', (_name, cls) => {
    const rules = [...rulesByProperty(cls as ContractClass)].map(
      ([property, list]): [string, string[]] => [
        property,
        list.map((rule) => `${rule.name}${rule.each ? '[]' : ''}`),
      ],
    );
    const strings = rules.filter(([, names]) =>
      names.some((name) => /^(isString|matches)(\[\])?$/.test(name)),
    );
    const integers = rules.filter(([, names]) =>
      names.some((name) => /^(isInt|isNumber)(\[\])?$/.test(name)),
    );
    const arrays = rules.filter(([, names]) => names.includes('isArray'));
    const nestedLists = rules.filter(([, names]) => names.includes('nestedValidation[]'));

    if (strings.length > 0)
      it.each(strings)('%s: a string has a maximum length', (_property, names) => {
        expect(names.filter((name) => BOUNDS_A_STRING.has(name.replace('[]', '')))).not.toEqual([]);
      });

    if (integers.length > 0)
      it.each(integers)('%s: a number has a maximum', (_property, names) => {
        expect(names.filter((name) => /^(max|isIn|isEnum)(\[\])?$/.test(name))).not.toEqual([]);
      });

    if (arrays.length > 0)
      it.each(arrays)('%s: an array has a maximum size', (_property, names) => {
        expect(names).toContain('arrayMaxSize');
      });

    if (nestedLists.length > 0)
      it.each(nestedLists)('%s: a nested list holds objects only', (_property, names) => {
        expect(names).toContain('isObject[]');
      });
  });
});
