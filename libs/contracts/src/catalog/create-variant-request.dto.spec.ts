import { CreateVariantRequest } from './create-variant-request.dto';
import { VariantUnit } from './variant-unit';
import { WeightUnit } from './weight-unit';
import {
  DECIMAL_12_2,
  errorsFor,
  errorsOnlyAt,
  minimalVariant,
  setPath,
  text,
  validVariant,
  valueOf,
} from '@consign/testing/fixtures';

const errors = (plain: unknown) => errorsFor(CreateVariantRequest, plain);
const rejectedAt = (plain: unknown, path: string) =>
  errorsOnlyAt(CreateVariantRequest, plain, path);
const withValue = (path: string, value: unknown) => setPath(validVariant(), path, value);

describe('CreateVariantRequest', () => {
  it('accepts a complete variant and a minimal one', () => {
    expect(errors(validVariant())).toEqual([]);
    expect(errors(minimalVariant())).toEqual([]);
  });

  it.each<[string, number]>([
    ['sku', 128],
    ['title', 256],
  ])('%s accepts %i characters and rejects one more', (path, max) => {
    expect(errors(withValue(path, text(max)))).toEqual([]);
    expect(rejectedAt(withValue(path, text(max + 1)), path)).toEqual([
      `${path} must be shorter than or equal to ${max} characters`,
    ]);
  });

  it.each(['sku', 'title', 'retail_price', 'weight_unit', 'unit'])('requires %s', (path) => {
    expect(rejectedAt(withValue(path, undefined), path)).toEqual([`${path} is required`]);
  });

  it.each(['sku', 'title', 'retail_price', 'weight_unit', 'unit'])(
    'rejects null for %s',
    (path) => {
      expect(rejectedAt(withValue(path, null), path)).toEqual([`${path} is required`]);
    },
  );

  describe('requires_shipping', () => {
    it('defaults to true', () => {
      const value = valueOf(CreateVariantRequest, minimalVariant());
      expect(value.requires_shipping).toBe(true);
    });

    it('null means the default', () => {
      expect(
        valueOf(CreateVariantRequest, withValue('requires_shipping', null)).requires_shipping,
      ).toBe(true);
    });

    it('keeps an explicit false', () => {
      expect(
        valueOf(CreateVariantRequest, withValue('requires_shipping', false)).requires_shipping,
      ).toBe(false);
    });

    it.each(['true', 1, 'yes'])('rejects the non-boolean %p', (value) => {
      expect(rejectedAt(withValue('requires_shipping', value), 'requires_shipping')).toEqual([
        'requires_shipping must be a boolean value',
      ]);
    });
  });

  describe.each(['retail_price', 'compare_at_price', 'weight'])('%s: Number(12,2)', (path) => {
    it.each(DECIMAL_12_2.accepted)('accepts %p', (value) => {
      expect(errors(withValue(path, value))).toEqual([]);
    });

    it.each(DECIMAL_12_2.rejected)('rejects %p', (value) => {
      expect(rejectedAt(withValue(path, value), path)).toContain(
        `${path} must be a number with at most 12 digits, 2 of them decimals`,
      );
    });

    it('accepts 0', () => {
      expect(errors(withValue(path, 0))).toEqual([]);
    });

    it('rejects a negative value', () => {
      expect(rejectedAt(withValue(path, -0.01), path)).toEqual([`${path} must not be less than 0`]);
    });
  });

  describe('weight_unit', () => {
    it.each(Object.values(WeightUnit))('accepts %s', (unit) => {
      expect(errors(withValue('weight_unit', unit))).toEqual([]);
    });

    it('has exactly the spec values g, kg, oz, lb', () => {
      expect(Object.values(WeightUnit).sort()).toEqual(['g', 'kg', 'lb', 'oz']);
    });

    it.each(['KG', 'mg', 'pcs', ''])('rejects %p', (unit) => {
      expect(rejectedAt(withValue('weight_unit', unit), 'weight_unit')).toEqual([
        'weight_unit must be one of the following values: g, kg, oz, lb',
      ]);
    });
  });

  describe('unit', () => {
    it.each(Object.values(VariantUnit))('accepts %s', (unit) => {
      expect(errors(withValue('unit', unit))).toEqual([]);
    });

    it('has exactly the spec values pcs, kg', () => {
      expect(Object.values(VariantUnit).sort()).toEqual(['kg', 'pcs']);
    });

    it.each(['PCS', 'g', 'box'])('rejects %p', (unit) => {
      expect(rejectedAt(withValue('unit', unit), 'unit')).toEqual([
        'unit must be one of the following values: pcs, kg',
      ]);
    });
  });

  describe('options (option name to value; JSON text at most 65535)', () => {
    const overhead = JSON.stringify({ o: '' }).length; // {"o":""}

    it('accepts options at the limit and rejects one character more', () => {
      const atLimit = { o: text(65535 - overhead) };
      expect(JSON.stringify(atLimit).length).toBe(65535);
      expect(errors(withValue('options', atLimit))).toEqual([]);
      const over = { o: text(65535 - overhead + 1) };
      expect(rejectedAt(withValue('options', over), 'options')).toEqual([
        'options must be at most 65535 characters long as JSON text',
      ]);
    });

    it('accepts null (the spec: "may be null")', () => {
      expect(errors(withValue('options', null))).toEqual([]);
    });

    it.each<[string, unknown]>([
      ['a list value', { Color: ['Red'] }],
      ['a number value', { Size: 42 }],
      ['an array', ['Red']],
    ])('rejects %s', (_case, options) => {
      expect(rejectedAt(withValue('options', options), 'options')).toEqual([
        'options must be an object mapping each option name to a string value',
      ]);
    });
  });

  it('strips unknown properties', () => {
    const value = valueOf(CreateVariantRequest, { ...validVariant(), id: 5, inventory: 3 });
    expect(value).not.toHaveProperty('id');
    expect(value).not.toHaveProperty('inventory');
  });
});
