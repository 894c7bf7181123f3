import { CalcDestAddressDto, CalcOriginAddressDto } from './calc-address.dto';
import { CalculateOrderRequest } from './calculate-order-request.dto';
import { ContentFlag } from './content-flag';
import { DimensionDto } from './dimension.dto';
import {
  DECIMAL_12_2,
  errorsFor,
  errorsOnlyAt,
  minimalCalculateOrder,
  setPath,
  text,
  validCalculateOrder,
  valueOf,
} from '@consign/testing/fixtures';

const errors = (plain: unknown) => errorsFor(CalculateOrderRequest, plain);
const rejectedAt = (plain: unknown, path: string) =>
  errorsOnlyAt(CalculateOrderRequest, plain, path);
const withValue = (path: string, value: unknown) => setPath(validCalculateOrder(), path, value);

const FLAGS = ['alcohol', 'battery', 'liquid'];

describe('CalculateOrderRequest', () => {
  it('accepts a complete request', () => {
    const value = valueOf(CalculateOrderRequest, validCalculateOrder());
    expect(value.dest_address).toBeInstanceOf(CalcDestAddressDto);
    expect(value.origin_addresses[1]).toBeInstanceOf(CalcOriginAddressDto);
    expect(value.dimension).toBeInstanceOf(DimensionDto);
  });

  it('accepts a request with only its required fields', () => {
    expect(errors(minimalCalculateOrder())).toEqual([]);
  });

  it('alcohol, battery and liquid default to "Not Applicable"', () => {
    const value = valueOf(CalculateOrderRequest, minimalCalculateOrder());
    expect([value.alcohol, value.battery, value.liquid]).toEqual([
      'Not Applicable',
      'Not Applicable',
      'Not Applicable',
    ]);
  });

  describe.each<[string, number]>([
    ['dest_address.city', 60],
    ['dest_address.zip_code', 15],
    ['origin_addresses[0].warehouse_code', 32],
    ['origin_addresses[1].warehouse_code', 32],
    ['origin_addresses[0].city', 60],
    ['origin_addresses[0].zip_code', 15],
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
    'dest_address',
    'dest_address.country_code',
    'origin_addresses',
    'origin_addresses[0].warehouse_code',
    'origin_addresses[1].country_code',
    'weight',
    'weight_unit',
    'dimension.length',
    'dimension.width',
    'dimension.height',
    'dimension.uom',
  ])('rejects a missing %s', (path) => {
    expect(rejectedAt(withValue(path, undefined), path)).toEqual([`${path} is required`]);
  });

  it.each([
    'dest_address.city',
    'dest_address.zip_code',
    'origin_addresses[0].city',
    'origin_addresses[0].zip_code',
    'alcohol',
    'battery',
    'liquid',
    'declared_value',
    'currency',
    'dimension',
  ])('accepts a missing optional %s', (path) => {
    expect(errors(withValue(path, undefined))).toEqual([]);
  });

  it('rejects an empty warehouse_code', () => {
    const path = 'origin_addresses[0].warehouse_code';
    expect(rejectedAt(withValue(path, ''), path)).toEqual([`${path} should not be empty`]);
  });

  describe.each(['dest_address.country_code', 'origin_addresses[1].country_code'])(
    '%s (ISO 3166-1 alpha-2)',
    (path) => {
      it.each(['US', 'DE'])('accepts %s', (code) => {
        expect(errors(withValue(path, code))).toEqual([]);
      });

      it.each(['us', 'USA', 'U', ''])('rejects %p', (code) => {
        expect(rejectedAt(withValue(path, code), path)).toEqual([
          `${path} must be an ISO 3166-1 alpha-2 country code (two uppercase letters naming a country, e.g. US)`,
        ]);
      });
    },
  );

  describe('origin_addresses', () => {
    it('needs at least one candidate', () => {
      expect(rejectedAt(withValue('origin_addresses', []), 'origin_addresses')).toEqual([
        'origin_addresses should not be empty',
      ]);
    });

    it('rejects an object instead of an array', () => {
      const value = { warehouse_code: 'WH', country_code: 'US' };
      expect(rejectedAt(withValue('origin_addresses', value), 'origin_addresses')).toContain(
        'origin_addresses must be an array',
      );
    });
  });

  describe.each(['weight', 'dimension.length', 'dimension.width', 'dimension.height'])(
    '%s: Number(12,2), more than 0',
    (path) => {
      it.each(DECIMAL_12_2.accepted)('accepts %p', (value) => {
        expect(errors(withValue(path, value))).toEqual([]);
      });

      it.each(DECIMAL_12_2.rejected)('rejects %p', (value) => {
        expect(rejectedAt(withValue(path, value), path)).toContain(
          `${path} must be a number with at most 12 digits, 2 of them decimals`,
        );
      });

      it.each([0, -2])('rejects %p', (value) => {
        expect(rejectedAt(withValue(path, value), path)).toEqual([
          `${path} must be a positive number`,
        ]);
      });
    },
  );

  describe('declared_value: Number(12,2)', () => {
    it.each([...DECIMAL_12_2.accepted, 0])('accepts %p', (value) => {
      expect(errors(withValue('declared_value', value))).toEqual([]);
    });

    it.each(DECIMAL_12_2.rejected)('rejects %p', (value) => {
      expect(rejectedAt(withValue('declared_value', value), 'declared_value')).toContain(
        'declared_value must be a number with at most 12 digits, 2 of them decimals',
      );
    });

    it('rejects a negative value', () => {
      expect(rejectedAt(withValue('declared_value', -5), 'declared_value')).toEqual([
        'declared_value must not be less than 0',
      ]);
    });
  });

  describe('weight_unit (kg, lb)', () => {
    it.each(['kg', 'lb'])('accepts %s', (unit) => {
      expect(errors(withValue('weight_unit', unit))).toEqual([]);
    });

    it.each(['g', 'oz', 'KG', ''])('rejects %p', (unit) => {
      expect(rejectedAt(withValue('weight_unit', unit), 'weight_unit')).toEqual([
        'weight_unit must be one of the following values: kg, lb',
      ]);
    });
  });

  describe('dimension.uom (m, cm, mm, in, ft)', () => {
    it.each(['m', 'cm', 'mm', 'in', 'ft'])('accepts %s', (uom) => {
      expect(errors(withValue('dimension.uom', uom))).toEqual([]);
    });

    it.each(['km', 'CM', 'inch'])('rejects %p', (uom) => {
      expect(rejectedAt(withValue('dimension.uom', uom), 'dimension.uom')).toEqual([
        'dimension.uom must be one of the following values: m, cm, mm, ft, in',
      ]);
    });
  });

  describe.each(FLAGS)('%s (Yes, No, Not Applicable)', (path) => {
    it.each(['Yes', 'No', 'Not Applicable'])('accepts %p', (flag) => {
      expect(valueOf(CalculateOrderRequest, withValue(path, flag))).toHaveProperty(path, flag);
    });

    it('null means the default', () => {
      expect(valueOf(CalculateOrderRequest, withValue(path, null))).toHaveProperty(
        path,
        'Not Applicable',
      );
    });

    it.each(['yes', 'N/A', 'NotApplicable', true])('rejects %p', (flag) => {
      expect(rejectedAt(withValue(path, flag), path)).toEqual([
        `${path} must be one of the following values: Yes, No, Not Applicable`,
      ]);
    });
  });

  it('has exactly the spec content flags', () => {
    expect(Object.values(ContentFlag)).toEqual(['Yes', 'No', 'Not Applicable']);
  });

  describe('currency (ISO 4217)', () => {
    it.each(['USD', 'EUR'])('accepts %s', (currency) => {
      expect(errors(withValue('currency', currency))).toEqual([]);
    });

    it.each(['usd', 'US', 'EURO'])('rejects %p', (currency) => {
      expect(rejectedAt(withValue('currency', currency), 'currency')).toEqual([
        'currency must be an ISO 4217 currency code (three uppercase letters naming a currency, e.g. USD)',
      ]);
    });
  });

  it.each<[string, unknown]>([
    ['dest_address', 'US'],
    ['dimension', [30, 20, 10]],
  ])('rejects a non-object %s', (path, value) => {
    expect(rejectedAt(withValue(path, value), path)).toContain(`${path} must be an object`);
  });

  it('strips unknown properties at every level', () => {
    const plain = validCalculateOrder();
    Object.assign(plain, { merchant_id: 1 });
    Object.assign(plain.dest_address, { province: 'TX' });
    Object.assign(plain.origin_addresses[0], { name: 'Newark' });
    Object.assign(plain.dimension, { volume: 6300 });
    const value = valueOf(CalculateOrderRequest, plain);
    expect(value).not.toHaveProperty('merchant_id');
    expect(value.dest_address).not.toHaveProperty('province');
    expect(value.origin_addresses[0]).not.toHaveProperty('name');
    expect(value.dimension).not.toHaveProperty('volume');
  });
});
