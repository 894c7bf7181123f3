import { CalculateFreightRequest, freightWeightUnit } from './calculate-freight-request.dto';
import { DimensionDto } from './dimension.dto';
import { IncoTerm } from './inco-term';
import { RATING_LIMITS } from './rating.limits';
import {
  DECIMAL_12_2,
  errorsFor,
  errorsOnlyAt,
  minimalCalculateFreight,
  setPath,
  text,
  validCalculateFreight,
  valueOf,
} from '@consign/testing/fixtures';

const errors = (plain: unknown) => errorsFor(CalculateFreightRequest, plain);
const rejectedAt = (plain: unknown, path: string) =>
  errorsOnlyAt(CalculateFreightRequest, plain, path);
const withValue = (path: string, value: unknown) => setPath(validCalculateFreight(), path, value);

describe('CalculateFreightRequest', () => {
  it('accepts a complete request', () => {
    const value = valueOf(CalculateFreightRequest, validCalculateFreight());
    expect(value.dimension).toBeInstanceOf(DimensionDto);
    expect(freightWeightUnit(value)).toBe('kg');
  });

  it('accepts a request with only its required fields', () => {
    expect(errors(minimalCalculateFreight())).toEqual([]);
  });

  describe.each<[string, number]>([
    ['dest_city', 60],
    ['dest_zip_code', 15],
    ['origin_city', 60],
    ['origin_zip_code', 15],
    ['service_code', 32],
  ])('%s (max %i characters)', (path, max) => {
    it('accepts a value at the limit', () => {
      expect(errors(withValue(path, text(max)))).toEqual([]);
    });

    it('rejects one character more, naming the path', () => {
      expect(rejectedAt(withValue(path, text(max + 1)), path)).toEqual([
        `${path} must be shorter than or equal to ${max} characters`,
      ]);
    });
  });

  it.each([
    'dest_country_code',
    'origin_country_code',
    'weight',
    'service_code',
    'dimension.length',
    'dimension.uom',
  ])('rejects a missing %s', (path) => {
    expect(rejectedAt(withValue(path, undefined), path)).toEqual([`${path} is required`]);
  });

  it.each([
    'dest_city',
    'dest_zip_code',
    'origin_city',
    'origin_zip_code',
    'dimension',
    'inco_term',
  ])('accepts a missing optional %s', (path) => {
    expect(errors(withValue(path, undefined))).toEqual([]);
  });

  describe.each(['dest_country_code', 'origin_country_code'])('%s (ISO 3166-1 alpha-2)', (path) => {
    it.each(['US', 'CN'])('accepts %s', (code) => {
      expect(errors(withValue(path, code))).toEqual([]);
    });

    it.each(['cn', 'CHN', '', 86])('rejects %p', (code) => {
      expect(rejectedAt(withValue(path, code), path)).toEqual([
        `${path} must be an ISO 3166-1 alpha-2 country code (two uppercase letters naming a country, e.g. US)`,
      ]);
    });
  });

  describe.each(['weight', 'dimension.width'])('%s: Number(12,2), more than 0', (path) => {
    it.each(DECIMAL_12_2.accepted)('accepts %p', (value) => {
      expect(errors(withValue(path, value))).toEqual([]);
    });

    it.each(DECIMAL_12_2.rejected)('rejects %p', (value) => {
      expect(rejectedAt(withValue(path, value), path)).toContain(
        `${path} must be a number with at most 12 digits, 2 of them decimals`,
      );
    });

    it.each([0, -1])('rejects %p', (value) => {
      expect(rejectedAt(withValue(path, value), path)).toEqual([
        `${path} must be a positive number`,
      ]);
    });
  });

  describe('inco_term (DAP, DDP)', () => {
    it.each(Object.values(IncoTerm))('accepts %s', (term) => {
      expect(errors(withValue('inco_term', term))).toEqual([]);
    });

    it('has exactly the spec values', () => {
      expect(Object.values(IncoTerm)).toEqual(['DAP', 'DDP']);
    });

    it.each(['EXW', 'dap', ''])('rejects %p', (term) => {
      expect(rejectedAt(withValue('inco_term', term), 'inco_term')).toEqual([
        'inco_term must be one of the following values: DAP, DDP',
      ]);
    });
  });

  describe('weight unit: weight_unit or weight_uom (kg, lb)', () => {
    const withUnits = (units: { weight_unit?: unknown; weight_uom?: unknown }) => ({
      ...minimalCalculateFreight(),
      weight_unit: undefined,
      ...units,
    });

    it.each(['kg', 'lb'])('accepts weight_unit %s alone', (unit) => {
      const value = valueOf(CalculateFreightRequest, withUnits({ weight_unit: unit }));
      expect(freightWeightUnit(value)).toBe(unit);
    });

    it.each(['kg', 'lb'])('accepts weight_uom %s alone (the spec sample)', (unit) => {
      const value = valueOf(CalculateFreightRequest, withUnits({ weight_uom: unit }));
      expect(value.weight_unit).toBeUndefined();
      expect(freightWeightUnit(value)).toBe(unit);
    });

    it('accepts both when they agree', () => {
      const value = valueOf(
        CalculateFreightRequest,
        withUnits({ weight_unit: 'lb', weight_uom: 'lb' }),
      );
      expect(freightWeightUnit(value)).toBe('lb');
    });

    it('rejects neither, naming weight_unit', () => {
      expect(rejectedAt(withUnits({}), 'weight_unit')).toEqual(['weight_unit is required']);
    });

    it('rejects null for both, naming weight_unit', () => {
      expect(rejectedAt(withUnits({ weight_unit: null, weight_uom: null }), 'weight_unit')).toEqual(
        ['weight_unit is required'],
      );
    });

    it('rejects two different units', () => {
      expect(rejectedAt(withUnits({ weight_unit: 'kg', weight_uom: 'lb' }), 'weight_uom')).toEqual([
        'weight_uom must equal weight_unit when both are given',
      ]);
    });

    it.each<[string, Record<string, unknown>]>([
      ['weight_unit', { weight_unit: 'g' }],
      ['weight_uom', { weight_uom: 'oz' }],
      ['weight_uom', { weight_unit: null, weight_uom: 'KG' }],
    ])('rejects a unit other than kg or lb in %s', (path, units) => {
      expect(rejectedAt(withUnits(units), path)).toContain(
        `${path} must be one of the following values: kg, lb`,
      );
    });

    it('freightWeightUnit refuses an unvalidated request without a unit', () => {
      expect(() => freightWeightUnit(new CalculateFreightRequest())).toThrow(
        'freight request has no weight unit',
      );
    });
  });

  it('strips unknown properties at every level', () => {
    const plain = validCalculateFreight();
    Object.assign(plain, { carrier: 'DHL' });
    Object.assign(plain.dimension, { girth: 3 });
    const value = valueOf(CalculateFreightRequest, plain);
    expect(value).not.toHaveProperty('carrier');
    expect(value.dimension).not.toHaveProperty('girth');
  });

  it('exports the spec limits', () => {
    expect(RATING_LIMITS).toEqual({
      city: 60,
      zip_code: 15,
      warehouse_code: 32,
      service_code: 32,
      weight_unit: 8,
      inco_term: 8,
      currency: 3,
      uom: 8,
    });
  });
});
