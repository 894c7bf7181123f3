import { LabelAddressDto } from '../common/address.dto';
import { CheckpointStatus } from './checkpoint-status';
import { CreateLabelRequest } from './create-label-request.dto';
import { LabelItemDto } from './label-item.dto';
import { LabelMetadataDto } from './label-metadata.dto';
import { LabelServiceDto } from './label-service.dto';
import { LABEL_LIMITS } from './label.limits';
import { LengthUnit } from './length-unit';
import { PackageAttributesDto } from './package-attributes.dto';
import {
  contractCheck,
  DECIMAL_12_2,
  DECIMAL_12_3,
  describeCountryCodes,
  describeCurrencyCodes,
  describeDecimals,
  describeEmails,
  describeMaxLengths,
  describeValues,
  itAcceptsEach,
  itAcceptsMissing,
  itAcceptsZeroNotNegative,
  itRejectsEmpty,
  itRejectsMissing,
  itRejectsNonIntegers,
  itRejectsNonObjects,
  itRejectsNonPositive,
  minimalLabel,
  setPath,
  validLabel,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CreateLabelRequest, validLabel);
const { errors, rejectedAt, withValue } = check;

const ADDRESSES = ['shipping_address', 'shipper_address'];

/** Label address limits (spec: "Label address object"). */
const ADDRESS_LIMITS: [string, number][] = [
  ['first_name', 64],
  ['last_name', 64],
  ['company_name', 128],
  ['phone', 32],
  ['address1', 256],
  ['address2', 256],
  ['district', 64],
  ['city', 64],
  ['province', 64],
  ['province_code', 32],
  ['zip_code', 16],
];
const ADDRESS_REQUIRED = [
  'first_name',
  'last_name',
  'phone',
  'address1',
  'city',
  'country',
  'country_code',
];
const ADDRESS_OPTIONAL = [
  'company_name',
  'email',
  'address2',
  'district',
  'province',
  'province_code',
  'zip_code',
];

describe('CreateLabelRequest', () => {
  it('accepts a complete label request', () => {
    const value = valueOf(CreateLabelRequest, validLabel());
    expect(value.shipping_address).toBeInstanceOf(LabelAddressDto);
    expect(value.shipper_address).toBeInstanceOf(LabelAddressDto);
    expect(value.service).toBeInstanceOf(LabelServiceDto);
    expect(value.items[1]).toBeInstanceOf(LabelItemDto);
    expect(value.package_attributes).toBeInstanceOf(PackageAttributesDto);
    expect(value.metadata).toBeInstanceOf(LabelMetadataDto);
  });

  it('accepts a label request with only its required fields', () => {
    expect(errors(minimalLabel())).toEqual([]);
  });

  describeMaxLengths(check, [
    ['reference', 64],
    // House limits: the spec gives these fields no maximum.
    ['shipping_address.country', 60],
    ['shipper_address.country', 60],
    ['metadata.platform_order_no', 64],
    ['metadata.platform', 32],
    ['service.service_code', 32],
    ['service.inco_term', 16],
    ['items[0].product_name', 100],
    ['items[1].product_name', 100],
    ['items[0].sku_code', 128],
    ['items[0].brand', 64],
    ['items[0].unit', 16],
    ['items[0].hs_code', 32],
    ['items[0].customs_description', 512],
    ...ADDRESSES.flatMap((address) =>
      ADDRESS_LIMITS.map(([field, max]): [string, number] => [`${address}.${field}`, max]),
    ),
  ]);

  describeEmails(
    check,
    ADDRESSES.map((address) => `${address}.email`),
    ['ada.example.com', 'ada@', 'ada@@example.com'],
  );

  describeCountryCodes(
    check,
    [...ADDRESSES.map((address) => `${address}.country_code`), 'items[0].origin_country_code'],
    { accepted: ['GB', 'US', 'PT'], rejected: ['gb', 'GBR', 'G', '', 44] },
  );

  itRejectsMissing(check, [
    'shipping_address',
    'shipper_address',
    'reference',
    'currency',
    'weight_unit',
    'service',
    'service.service_code',
    'items',
    'items[0].product_name',
    'items[0].quantity',
    'items[0].weight',
    'items[1].unit_price',
    ...ADDRESSES.flatMap((address) => ADDRESS_REQUIRED.map((field) => `${address}.${field}`)),
  ]);

  itAcceptsMissing(check, [
    'length',
    'width',
    'height',
    'expect_pickup_time',
    'service.inco_term',
    'package_attributes',
    'metadata',
    'metadata.platform',
    'metadata.platform_order_no',
    'package_attributes.weight',
    'package_attributes.contains_alcohol',
    'items[0].length',
    'items[0].declared_unit_value',
    'items[0].tax',
    'items[0].sku_code',
    'items[0].brand',
    'items[0].unit',
    'items[0].hs_code',
    'items[0].customs_description',
    'items[0].origin_country_code',
    ...ADDRESSES.flatMap((address) => ADDRESS_OPTIONAL.map((field) => `${address}.${field}`)),
  ]);

  it.each(['length', 'width', 'height', 'items[0].length', 'items[1].height'])(
    'accepts null for %s (the spec: "null allowed")',
    (path) => {
      expect(errors(withValue(path, null))).toEqual([]);
    },
  );

  itRejectsEmpty(check, [
    'reference',
    'service.service_code',
    'items[0].product_name',
    'shipper_address.city',
  ]);

  describe('items: at least one', () => {
    it('rejects an empty list', () => {
      expect(rejectedAt(withValue('items', []), 'items')).toEqual([
        'items must contain at least 1 elements',
      ]);
    });

    it('accepts a single item', () => {
      const plain = validLabel();
      plain.items = [plain.items[0]];
      expect(errors(plain)).toEqual([]);
    });

    it.each<[string, unknown]>([
      ['an object', { product_name: 'Mug' }],
      ['a null element', [null]],
      ['a string', 'Mug'],
    ])('rejects %s', (_case, items) => {
      expect(rejectedAt(withValue('items', items), 'items').length).toBeGreaterThan(0);
    });
  });

  describeCurrencyCodes(check, {
    accepted: ['GBP', 'USD', 'JPY'],
    rejected: ['gbp', 'GB', 'POUND', '', 826],
  });

  describeValues(check, 'weight_unit (kg, g, lb, oz)', 'weight_unit', {
    accepted: ['kg', 'g', 'lb', 'oz'],
    rejected: ['KG', 'pcs', 't', ''],
    message: 'weight_unit must be one of the following values: g, kg, oz, lb',
  });

  describeValues(
    check,
    'length_unit (m, cm, mm, ft, in)',
    'length_unit',
    {
      accepted: ['m', 'cm', 'mm', 'ft', 'in'],
      rejected: ['CM', 'km', 'inch', ''],
      message: 'length_unit must be one of the following values: m, cm, mm, ft, in',
    },
    () => {
      it('has exactly the spec values', () => {
        expect(Object.values(LengthUnit).sort()).toEqual(['cm', 'ft', 'in', 'm', 'mm']);
      });

      it('may be omitted when no length, width or height is given', () => {
        expect(errors(minimalLabel())).toEqual([]);
        expect(errors(setPath(minimalLabel(), 'length', null))).toEqual([]);
      });

      it.each(['length', 'width', 'height'])(
        'is required when the label gives a %s',
        (dimension) => {
          const plain = setPath(minimalLabel(), dimension, 10);
          expect(rejectedAt(plain, 'length_unit')).toEqual(['length_unit is required']);
        },
      );

      it('is required when an item gives a dimension', () => {
        const plain = setPath(minimalLabel(), 'items[0].width', 10);
        expect(rejectedAt(plain, 'length_unit')).toEqual(['length_unit is required']);
      });
    },
  );

  describeValues(check, 'expect_pickup_time (ISO 8601 date-time)', 'expect_pickup_time', {
    accepted: [
      '2026-05-20T09:30:00Z',
      '2026-05-20T09:30:00.123Z',
      '2026-05-20T09:30:00+08:00',
      '2026-05-20T09:30Z',
      '2026-05-20T09:30:00',
    ],
    rejected: [
      '2026-05-20',
      '2026-02-30T09:30:00Z',
      '2026-05-20 09:30:00',
      '2026-05-20T25:00:00Z',
      '20/05/2026 09:30',
      'tomorrow',
      '',
      1779269400000,
    ],
    message:
      'expect_pickup_time must be an ISO 8601 date-time (yyyy-MM-ddTHH:mm:ss with an optional zone)',
  });

  describeDecimals(
    check,
    ['items[0].unit_price', 'items[0].declared_unit_value', 'items[1].tax'],
    'Number(12,2)',
    DECIMAL_12_2,
    (path) => itAcceptsZeroNotNegative(check, path, -0.01),
  );

  describeDecimals(
    check,
    [
      'length',
      'width',
      'height',
      'items[0].weight',
      'items[0].length',
      'items[0].width',
      'items[1].height',
      'package_attributes.weight',
    ],
    'up to 3 decimals, more than 0',
    DECIMAL_12_3,
    (path) => itRejectsNonPositive(check, path, [0, -1]),
  );

  describe('items[0].quantity: integer, at least 1', () => {
    const path = 'items[0].quantity';

    itAcceptsEach(check, path, [1, 2_147_483_647]);

    it('rejects 0', () => {
      expect(rejectedAt(withValue(path, 0), path)).toEqual([`${path} must not be less than 1`]);
    });

    itRejectsNonIntegers(check, path, [0.5, '1']);
  });

  it.each([
    'package_attributes.contains_alcohol',
    'package_attributes.contains_liquid',
    'package_attributes.contains_battery',
    'package_attributes.contains_dangerous_goods',
    'package_attributes.contains_prohibited_items',
  ])('%s must be a boolean', (path) => {
    expect(errors(withValue(path, true))).toEqual([]);
    expect(rejectedAt(withValue(path, 'yes'), path)).toEqual([`${path} must be a boolean value`]);
  });

  it.each(['metadata.platform', 'metadata.platform_order_no'])('%s must be a string', (path) => {
    expect(rejectedAt(withValue(path, 1001), path)).toContain(`${path} must be a string`);
  });

  itRejectsNonObjects(check, [
    ['shipping_address', 'London'],
    ['shipper_address', []],
    ['service', 'DHL-EXPRESS'],
    ['package_attributes', true],
    ['metadata', 'shopify'],
  ]);

  it('strips unknown properties at every level', () => {
    const plain = validLabel();
    Object.assign(plain, { id: 9, tracking_number: '1Z' });
    Object.assign(plain.shipping_address, { geo: 'x' });
    Object.assign(plain.service, { carrier: 'DHL' });
    Object.assign(plain.items[0], { image: 'x' });
    Object.assign(plain.package_attributes, { fragile: true });
    Object.assign(plain.metadata, { store: 'x' });
    const value = valueOf(CreateLabelRequest, plain);
    expect(value).not.toHaveProperty('id');
    expect(value).not.toHaveProperty('tracking_number');
    expect(value.shipping_address).not.toHaveProperty('geo');
    expect(value.service).not.toHaveProperty('carrier');
    expect(value.items[0]).not.toHaveProperty('image');
    expect(value.package_attributes).not.toHaveProperty('fragile');
    expect(value.metadata).not.toHaveProperty('store');
  });

  it('has exactly the spec checkpoint statuses', () => {
    expect(Object.values(CheckpointStatus)).toEqual([
      'information_received',
      'in_transit',
      'out_for_delivery',
      'available_for_pickup',
      'delivery_attempt_failed',
      'delivered',
      'delivered_with_exception',
      'exception',
      'disposed',
      'expired',
      'unknown',
    ]);
  });

  it('exports the spec limits', () => {
    expect(LABEL_LIMITS).toEqual({
      reference: 64,
      currency: 3,
      min_items: 1,
      service: { service_code: 32, inco_term: 16 },
      item: {
        product_name: 100,
        sku_code: 128,
        brand: 64,
        unit: 16,
        hs_code: 32,
        customs_description: 512,
      },
      metadata: { platform_order_no: 64, platform: 32 },
    });
  });
});
