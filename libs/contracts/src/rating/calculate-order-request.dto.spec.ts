import { CalcDestAddressDto, CalcOriginAddressDto } from './calc-address.dto';
import { CalculateOrderRequest } from './calculate-order-request.dto';
import { ContentFlag } from './content-flag';
import { DimensionDto } from './dimension.dto';
import {
  contractCheck,
  DECIMAL_12_2,
  describeCountryCodes,
  describeCurrencyCodes,
  describeDecimals,
  describeMaxLengths,
  describeValues,
  itAcceptsMissing,
  itRejectsMissing,
  itRejectsNonPositive,
  minimalCalculateOrder,
  validCalculateOrder,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CalculateOrderRequest, validCalculateOrder);
const { errors, rejectedAt, withValue } = check;

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

  describeMaxLengths(check, [
    ['dest_address.city', 60],
    ['dest_address.zip_code', 15],
    ['origin_addresses[0].warehouse_code', 32],
    ['origin_addresses[1].warehouse_code', 32],
    ['origin_addresses[0].city', 60],
    ['origin_addresses[0].zip_code', 15],
  ]);

  itRejectsMissing(check, [
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
  ]);

  itAcceptsMissing(check, [
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
  ]);

  it('rejects an empty warehouse_code', () => {
    const path = 'origin_addresses[0].warehouse_code';
    expect(rejectedAt(withValue(path, ''), path)).toEqual([`${path} should not be empty`]);
  });

  describeCountryCodes(check, ['dest_address.country_code', 'origin_addresses[1].country_code'], {
    accepted: ['US', 'DE'],
    rejected: ['us', 'USA', 'U', ''],
  });

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

  describeDecimals(
    check,
    ['weight', 'dimension.length', 'dimension.width', 'dimension.height'],
    'Number(12,2), more than 0',
    DECIMAL_12_2,
    (path) => itRejectsNonPositive(check, path, [0, -2]),
  );

  describeDecimals(
    check,
    ['declared_value'],
    'Number(12,2)',
    { ...DECIMAL_12_2, accepted: [...DECIMAL_12_2.accepted, 0] },
    (path) => {
      it('rejects a negative value', () => {
        expect(rejectedAt(withValue(path, -5), path)).toEqual([`${path} must not be less than 0`]);
      });
    },
  );

  describeValues(check, 'weight_unit (kg, lb)', 'weight_unit', {
    accepted: ['kg', 'lb'],
    rejected: ['g', 'oz', 'KG', ''],
    message: 'weight_unit must be one of the following values: kg, lb',
  });

  describeValues(check, 'dimension.uom (m, cm, mm, in, ft)', 'dimension.uom', {
    accepted: ['m', 'cm', 'mm', 'in', 'ft'],
    rejected: ['km', 'CM', 'inch'],
    message: 'dimension.uom must be one of the following values: m, cm, mm, ft, in',
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

  describeCurrencyCodes(check, { accepted: ['USD', 'EUR'], rejected: ['usd', 'US', 'EURO'] });

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
