import { OrderAddressDto } from '../common/address.dto';
import { CreateOrderRequest, orderBillingAddress } from './create-order-request.dto';
import { ORDER_LIMITS } from './order.limits';
import { OrderServiceDto } from './order-service.dto';
import { SkuItemDto } from './sku-item.dto';
import {
  contractCheck,
  DECIMAL_12_2,
  describeCountryCodes,
  describeCurrencyCodes,
  describeDecimals,
  describeMaxLengths,
  itAcceptsEach,
  itAcceptsMissing,
  itAcceptsZeroNotNegative,
  itRejectsEach,
  itRejectsEmpty,
  itRejectsMissing,
  itRejectsNonIntegers,
  itRejectsNonObjects,
  minimalOrder,
  text,
  validOrder,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CreateOrderRequest, validOrder);
const { errors, rejectedAt, withValue } = check;

/** Order address limits (spec: "Order address object"), for both addresses of the order. */
const ADDRESS_LIMITS: [string, number][] = [
  ['first_name', 64],
  ['last_name', 64],
  ['phone', 32],
  ['address1', 256],
  ['address2', 256],
  ['zip_code', 15],
  ['district', 60],
  ['city', 60],
  ['province', 60],
  ['country', 60],
];
const ADDRESS_REQUIRED = [
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
];
const ADDRESSES = ['shipping_address', 'billing_address'];

describe('CreateOrderRequest', () => {
  it('accepts a complete order', () => {
    const value = valueOf(CreateOrderRequest, validOrder());
    expect(value.shipping_address).toBeInstanceOf(OrderAddressDto);
    expect(value.billing_address).toBeInstanceOf(OrderAddressDto);
    expect(value.service).toBeInstanceOf(OrderServiceDto);
    expect(value.sku_items[1]).toBeInstanceOf(SkuItemDto);
    expect(value.currency).toBe('EUR');
    expect(value.totals_include_tax).toBe(true);
  });

  it('accepts an order with only its required fields', () => {
    expect(errors(minimalOrder())).toEqual([]);
  });

  describe('defaults', () => {
    it('currency defaults to USD and totals_include_tax to false', () => {
      const value = valueOf(CreateOrderRequest, minimalOrder());
      expect(value.currency).toBe('USD');
      expect(value.totals_include_tax).toBe(false);
    });

    it('billing address defaults to the shipping address', () => {
      const value = valueOf(CreateOrderRequest, minimalOrder());
      expect(value.billing_address).toBeUndefined();
      expect(orderBillingAddress(value)).toBe(value.shipping_address);
    });

    it('a given billing address is kept', () => {
      const value = valueOf(CreateOrderRequest, validOrder());
      expect(orderBillingAddress(value).first_name).toBe('Charles');
    });

    it('an explicit null means the default', () => {
      const plain = { ...minimalOrder(), currency: null, totals_include_tax: null };
      const value = valueOf(CreateOrderRequest, plain);
      expect(value.currency).toBe('USD');
      expect(value.totals_include_tax).toBe(false);
    });
  });

  describeMaxLengths(check, [
    ['reference', 47],
    ['service.service_code', 63],
    ['service.inco_term', 8],
    ['service.warehouse_code', 32],
    ['sku_items[0].sku_number', 128],
    ['sku_items[1].sku_number', 128],
    ...ADDRESSES.flatMap((address) =>
      ADDRESS_LIMITS.map(([field, max]): [string, number] => [`${address}.${field}`, max]),
    ),
  ]);

  describe.each(ADDRESSES)('%s.email (max 128, must contain @)', (address) => {
    const path = `${address}.email`;
    const atLimit = `${text(64)}@${text(63)}`;

    it('accepts an address of 128 characters', () => {
      expect(atLimit).toHaveLength(128);
      expect(errors(withValue(path, atLimit))).toEqual([]);
    });

    it('rejects 129 characters', () => {
      expect(rejectedAt(withValue(path, `${atLimit}x`), path)).toEqual([
        `${path} must be shorter than or equal to 128 characters`,
      ]);
    });

    it.each(['ada.example.com', 'ada@', '@example.com', 'ada @example.com', 'a@b@c', ''])(
      'rejects %p',
      (email) => {
        expect(rejectedAt(withValue(path, email), path)).toContain(
          `${path} must be an email address containing @`,
        );
      },
    );
  });

  describeCountryCodes(
    check,
    ADDRESSES.map((address) => `${address}.country_code`),
    { accepted: ['US', 'DE', 'CN'], rejected: ['us', 'USA', 'U', '', 'U1', 840] },
  );

  itRejectsMissing(check, [
    'shipping_address',
    'sku_items',
    'sku_items[0].sku_number',
    'sku_items[0].quantity',
    'sku_items[1].price',
    ...ADDRESS_REQUIRED.map((field) => `shipping_address.${field}`),
    ...ADDRESS_REQUIRED.map((field) => `billing_address.${field}`),
  ]);

  itAcceptsMissing(check, [
    'billing_address',
    'reference',
    'currency',
    'totals_include_tax',
    'shipping_cost',
    'service',
    'service.service_code',
    'service.inco_term',
    'service.warehouse_code',
    'sku_items[0].discount',
    'sku_items[0].tax',
    'shipping_address.address2',
    'shipping_address.country',
  ]);

  it('accepts a null tax (the spec: "may be null")', () => {
    expect(errors(withValue('sku_items[0].tax', null))).toEqual([]);
  });

  itRejectsEmpty(check, [
    'shipping_address.first_name',
    'shipping_address.city',
    'sku_items[0].sku_number',
  ]);

  describeDecimals(
    check,
    ['shipping_cost', 'sku_items[0].price', 'sku_items[1].discount'],
    'Number(12,2)',
    DECIMAL_12_2,
    (path) => itAcceptsZeroNotNegative(check, path, -1),
  );

  describe('sku_items[0].tax: a fraction, Number(12,2)', () => {
    const path = 'sku_items[0].tax';

    itAcceptsEach(check, path, [0, 0.05, 0.2, 1]);

    it.each([1.01, 5])('rejects %p (more than 100%%)', (tax) => {
      expect(rejectedAt(withValue(path, tax), path)).toEqual([
        `${path} must not be greater than 1`,
      ]);
    });

    it.each([0.075, 0.005])('rejects %p (more than 2 decimals)', (tax) => {
      expect(rejectedAt(withValue(path, tax), path)).toContain(
        `${path} must be a number with at most 12 digits, 2 of them decimals`,
      );
    });

    it('rejects a negative rate', () => {
      expect(rejectedAt(withValue(path, -0.05), path)).toEqual([`${path} must not be less than 0`]);
    });
  });

  describe('sku_items[0].quantity: integer, at least 1', () => {
    const path = 'sku_items[0].quantity';

    itAcceptsEach(check, path, [1, 2, 2_147_483_647]);
    itRejectsEach(check, path, [0, -1], `${path} must not be less than 1`);

    it('rejects a count beyond a 32-bit integer', () => {
      expect(rejectedAt(withValue(path, 2_147_483_648), path)).toEqual([
        `${path} must not be greater than 2147483647`,
      ]);
    });

    it('rejects null', () => {
      expect(rejectedAt(withValue(path, null), path)).toEqual([`${path} is required`]);
    });

    itRejectsNonIntegers(check, path, [1.5, '2']);
  });

  describeCurrencyCodes(check, {
    accepted: ['USD', 'GBP'],
    rejected: ['usd', 'US', 'DOLLAR', ''],
  });

  it.each(['true', 0, 'false'])('rejects the non-boolean totals_include_tax %p', (value) => {
    expect(rejectedAt(withValue('totals_include_tax', value), 'totals_include_tax')).toEqual([
      'totals_include_tax must be a boolean value',
    ]);
  });

  describe('sku_items', () => {
    it('needs at least one line', () => {
      expect(rejectedAt(withValue('sku_items', []), 'sku_items')).toEqual([
        'sku_items should not be empty',
      ]);
    });

    it.each<[string, unknown]>([
      ['an object', { sku_number: '1', quantity: 1, price: 1 }],
      ['a null element', [null]],
    ])('rejects %s', (_case, value) => {
      expect(rejectedAt(withValue('sku_items', value), 'sku_items').length).toBeGreaterThan(0);
    });
  });

  itRejectsNonObjects(check, [
    ['shipping_address', 'Main Street 1'],
    ['shipping_address', [{}]],
    ['billing_address', 5],
    ['service', 'UPS'],
  ]);

  it('strips unknown properties at every level', () => {
    const plain = validOrder();
    Object.assign(plain, { id: 1, status: 'Completed' });
    Object.assign(plain.shipping_address, { latitude: 1 });
    Object.assign(plain.service, { carrier: 'UPS' });
    Object.assign(plain.sku_items[0], { cost: 1 });
    const value = valueOf(CreateOrderRequest, plain);
    expect(value).not.toHaveProperty('id');
    expect(value).not.toHaveProperty('status');
    expect(value.shipping_address).not.toHaveProperty('latitude');
    expect(value.service).not.toHaveProperty('carrier');
    expect(value.sku_items[0]).not.toHaveProperty('cost');
  });

  it('exports the spec limits', () => {
    expect(ORDER_LIMITS).toMatchObject({
      reference: 47,
      currency: 3,
      status: 31,
      service: { service_code: 63, inco_term: 8, warehouse_code: 32 },
      sku_item: { sku_number: 128 },
      tracking: {
        tracking_courier: 255,
        tracking_number: 255,
        details: 255,
        description: 255,
        status: 32,
      },
    });
  });
});
