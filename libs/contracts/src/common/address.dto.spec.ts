import { ClassConstructor } from 'class-transformer';
import {
  LABEL_ADDRESS_LIMITS,
  LabelAddressDto,
  ORDER_ADDRESS_LIMITS,
  OrderAddressDto,
  SHIPPER_LIMITS,
  ShipperDto,
} from './address.dto';
import {
  contractCheck,
  describeValues,
  errorsFor,
  minimalLabelAddress,
  text,
  validLabelAddress,
  validOrderAddress,
  validShipper,
  valueOf,
} from '@consign/testing/fixtures';

interface AddressCase {
  cls: ClassConstructor<object>;
  valid: () => Record<string, unknown>;
  /** Maximum lengths from the spec's table for this address. */
  limits: Record<string, number>;
  required: string[];
  optional: string[];
}

/** The three address tables of the spec, written out independently of the *_LIMITS constants. */
const CASES: Record<string, AddressCase> = {
  LabelAddressDto: {
    cls: LabelAddressDto,
    valid: validLabelAddress,
    limits: {
      first_name: 64,
      last_name: 64,
      company_name: 128,
      phone: 32,
      email: 128,
      address1: 256,
      address2: 256,
      district: 64,
      city: 64,
      province: 64,
      province_code: 32,
      zip_code: 16,
      // Not in the spec's table: a house limit (the order address's).
      country: 60,
    },
    required: ['first_name', 'last_name', 'phone', 'address1', 'city', 'country', 'country_code'],
    optional: [
      'company_name',
      'email',
      'address2',
      'district',
      'province',
      'province_code',
      'zip_code',
    ],
  },
  OrderAddressDto: {
    cls: OrderAddressDto,
    valid: validOrderAddress,
    limits: {
      first_name: 64,
      last_name: 64,
      email: 128,
      phone: 32,
      address1: 256,
      address2: 256,
      zip_code: 15,
      district: 60,
      city: 60,
      province: 60,
      country: 60,
    },
    required: [
      'first_name',
      'last_name',
      'email',
      'phone',
      'address1',
      'zip_code',
      'district',
      'city',
      'province',
      'country_code',
    ],
    optional: ['address2', 'country'],
  },
  ShipperDto: {
    cls: ShipperDto,
    valid: validShipper,
    limits: {
      first_name: 64,
      last_name: 64,
      email: 128,
      phone: 32,
      address1: 256,
      address2: 256,
      zip_code: 15,
      district: 60,
      city: 60,
      province: 60,
      country: 60,
      // Not in the spec's table: a house limit (the label address's).
      company_name: 128,
    },
    required: ['last_name', 'phone', 'address1', 'city', 'province', 'country', 'company_name'],
    optional: ['first_name', 'email', 'address2', 'zip_code', 'district'],
  },
};

/** A value of `length` characters that is valid for the field (emails need an @). */
function valueOfLength(field: string, length: number): string {
  return field === 'email' ? `${text(length - 12)}@example.com` : text(length);
}

describe.each(Object.keys(CASES))('%s', (name) => {
  const { cls, valid, limits, required, optional } = CASES[name];
  const { errors, rejectedAt } = contractCheck(cls, valid);
  // A shallow spread keeps the key when the value is undefined (withValue would delete it).
  const withField = (field: string, value: unknown) => ({ ...valid(), [field]: value });

  it('accepts the fixture', () => {
    expect(errors(valid())).toEqual([]);
  });

  it('covers every property with a required or optional case', () => {
    expect([...required, ...optional].sort()).toEqual(Object.keys(valid()).sort());
  });

  it.each(Object.entries(limits))('%s accepts %i characters and rejects one more', (field, max) => {
    expect(errors(withField(field, valueOfLength(field, max)))).toEqual([]);
    expect(rejectedAt(withField(field, valueOfLength(field, max + 1)), field)).toEqual([
      `${field} must be shorter than or equal to ${max} characters`,
    ]);
  });

  it.each(required)('requires %s', (field) => {
    expect(rejectedAt(withField(field, undefined), field)).toEqual([`${field} is required`]);
  });

  it.each(required.filter((field) => !['email', 'country_code'].includes(field)))(
    'rejects an empty %s',
    (field) => {
      expect(rejectedAt(withField(field, ''), field)).toEqual([`${field} should not be empty`]);
    },
  );

  it.each(optional)('accepts a missing or null %s', (field) => {
    expect(errors(withField(field, undefined))).toEqual([]);
    expect(errors(withField(field, null))).toEqual([]);
  });

  it.each(['ada', 'ada@', '@example.com', 'a b@example.com', 'a@b@example.com'])(
    'rejects the email %p (must contain @)',
    (email) => {
      expect(rejectedAt(withField('email', email), 'email')).toEqual([
        'email must be an email address containing @',
      ]);
    },
  );

  it('strips unknown properties', () => {
    expect(valueOf(cls, withField('latitude', 51.5))).not.toHaveProperty('latitude');
  });
});

for (const name of ['LabelAddressDto', 'OrderAddressDto'])
  describeValues(
    contractCheck(CASES[name].cls, CASES[name].valid),
    `${name}.country_code`,
    'country_code',
    {
      accepted: ['GB', 'US', 'CN'],
      rejected: ['gb', 'GBR', 'G', '', 'G1', 44],
      message:
        'country_code must be an ISO 3166-1 alpha-2 country code (two uppercase letters naming a country, e.g. US)',
    },
  );

describe('address limits', () => {
  it('label and order addresses differ where the spec tables differ', () => {
    expect(LABEL_ADDRESS_LIMITS.zip_code).toBe(16);
    expect(ORDER_ADDRESS_LIMITS.zip_code).toBe(15);
    expect(LABEL_ADDRESS_LIMITS.district).toBe(64);
    expect(ORDER_ADDRESS_LIMITS.district).toBe(60);
    expect(LABEL_ADDRESS_LIMITS.city).toBe(64);
    expect(ORDER_ADDRESS_LIMITS.city).toBe(60);
    expect(SHIPPER_LIMITS).toEqual(CASES.ShipperDto.limits);
    expect(ORDER_ADDRESS_LIMITS).toEqual({ ...CASES.OrderAddressDto.limits, country_code: 2 });
    expect(LABEL_ADDRESS_LIMITS).toEqual({ ...CASES.LabelAddressDto.limits, country_code: 2 });
  });

  it('a label address needs only its required fields', () => {
    expect(errorsFor(LabelAddressDto, minimalLabelAddress())).toEqual([]);
  });
});
