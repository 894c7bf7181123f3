import { CreateVariantRequest } from './create-variant-request.dto';
import { VariantUnit } from './variant-unit';
import { WeightUnit } from './weight-unit';
import {
  contractCheck,
  DECIMAL_12_2,
  describeDecimals,
  describeValues,
  minimalVariant,
  text,
  validVariant,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CreateVariantRequest, validVariant);
const { errors, rejectedAt, withValue } = check;

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

  describeDecimals(
    check,
    ['retail_price', 'compare_at_price', 'weight'],
    'Number(12,2)',
    DECIMAL_12_2,
    (path) => {
      it('accepts 0', () => {
        expect(errors(withValue(path, 0))).toEqual([]);
      });

      it('rejects a negative value', () => {
        expect(rejectedAt(withValue(path, -0.01), path)).toEqual([
          `${path} must not be less than 0`,
        ]);
      });
    },
  );

  describeValues(
    check,
    'weight_unit',
    'weight_unit',
    {
      accepted: Object.values(WeightUnit),
      rejected: ['KG', 'mg', 'pcs', ''],
      message: 'weight_unit must be one of the following values: g, kg, oz, lb',
    },
    () => {
      it('has exactly the spec values g, kg, oz, lb', () => {
        expect(Object.values(WeightUnit).sort()).toEqual(['g', 'kg', 'lb', 'oz']);
      });
    },
  );

  describeValues(
    check,
    'unit',
    'unit',
    {
      accepted: Object.values(VariantUnit),
      rejected: ['PCS', 'g', 'box'],
      message: 'unit must be one of the following values: pcs, kg',
    },
    () => {
      it('has exactly the spec values pcs, kg', () => {
        expect(Object.values(VariantUnit).sort()).toEqual(['kg', 'pcs']);
      });
    },
  );

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
