import { CalculateFreightRequest, freightWeightUnit } from './calculate-freight-request.dto';
import { DimensionDto } from './dimension.dto';
import { IncoTerm } from './inco-term';
import { RATING_LIMITS } from './rating.limits';
import {
  contractCheck,
  DECIMAL_12_2,
  describeCountryCodes,
  describeDecimals,
  describeMaxLengths,
  describeValues,
  itAcceptsMissing,
  itRejectsMissing,
  itRejectsNonPositive,
  minimalCalculateFreight,
  validCalculateFreight,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CalculateFreightRequest, validCalculateFreight);
const { errors, rejectedAt } = check;

describe('CalculateFreightRequest', () => {
  it('accepts a complete request', () => {
    const value = valueOf(CalculateFreightRequest, validCalculateFreight());
    expect(value.dimension).toBeInstanceOf(DimensionDto);
    expect(freightWeightUnit(value)).toBe('kg');
  });

  it('accepts a request with only its required fields', () => {
    expect(errors(minimalCalculateFreight())).toEqual([]);
  });

  describeMaxLengths(check, [
    ['dest_city', 60],
    ['dest_zip_code', 15],
    ['origin_city', 60],
    ['origin_zip_code', 15],
    ['service_code', 32],
  ]);

  itRejectsMissing(check, [
    'dest_country_code',
    'origin_country_code',
    'weight',
    'service_code',
    'dimension.length',
    'dimension.uom',
  ]);

  itAcceptsMissing(check, [
    'dest_city',
    'dest_zip_code',
    'origin_city',
    'origin_zip_code',
    'dimension',
    'inco_term',
  ]);

  describeCountryCodes(check, ['dest_country_code', 'origin_country_code'], {
    accepted: ['US', 'CN'],
    rejected: ['cn', 'CHN', '', 86],
  });

  describeDecimals(
    check,
    ['weight', 'dimension.width'],
    'Number(12,2), more than 0',
    DECIMAL_12_2,
    (path) => itRejectsNonPositive(check, path, [0, -1]),
  );

  describeValues(
    check,
    'inco_term (DAP, DDP)',
    'inco_term',
    {
      accepted: Object.values(IncoTerm),
      rejected: ['EXW', 'dap', ''],
      message: 'inco_term must be one of the following values: DAP, DDP',
    },
    () => {
      it('has exactly the spec values', () => {
        expect(Object.values(IncoTerm)).toEqual(['DAP', 'DDP']);
      });
    },
  );

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
