import { ShipperDto } from '../common/address.dto';
import { CreateInboundRequest } from './create-inbound-request.dto';
import { INBOUND_LIMITS } from './inbound.limits';
import { InboundItemRequest } from './inbound-item-request.dto';
import { InboundStatus } from './inbound-status';
import {
  errorsFor,
  errorsOnlyAt,
  minimalInbound,
  setPath,
  text,
  validInbound,
  valueOf,
} from '@consign/testing/fixtures';

const errors = (plain: unknown) => errorsFor(CreateInboundRequest, plain);
const rejectedAt = (plain: unknown, path: string) =>
  errorsOnlyAt(CreateInboundRequest, plain, path);
const withValue = (path: string, value: unknown) => setPath(validInbound(), path, value);

describe('CreateInboundRequest', () => {
  it('accepts a complete inbound order', () => {
    const value = valueOf(CreateInboundRequest, validInbound());
    expect(value.shipper).toBeInstanceOf(ShipperDto);
    expect(value.items[0]).toBeInstanceOf(InboundItemRequest);
    expect(value.items[0].quantity).toBe(100);
  });

  it('accepts an inbound order with only its required fields', () => {
    expect(errors(minimalInbound())).toEqual([]);
  });

  describe.each<[string, number]>([
    ['carrier', 32],
    ['reference', 47],
    // House limits: the spec gives these fields no maximum.
    ['tracking_no', 255],
    ['remarks', 2000],
    ['shipper.company_name', 128],
    ['warehouse_code', 32],
    ['items[0].sku_number', 128],
    ['items[1].sku_number', 128],
    ['shipper.first_name', 64],
    ['shipper.last_name', 64],
    ['shipper.phone', 32],
    ['shipper.address1', 256],
    ['shipper.address2', 256],
    ['shipper.zip_code', 15],
    ['shipper.district', 60],
    ['shipper.city', 60],
    ['shipper.province', 60],
    ['shipper.country', 60],
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

  describe('shipper.email (max 128, must contain @)', () => {
    const path = 'shipper.email';
    const atLimit = `${text(64)}@${text(63)}`;

    it('accepts 128 characters and rejects 129', () => {
      expect(errors(withValue(path, atLimit))).toEqual([]);
      expect(rejectedAt(withValue(path, `x${atLimit}`), path)).toEqual([
        `${path} must be shorter than or equal to 128 characters`,
      ]);
    });

    it.each(['grace.example.com', 'grace@', 'gr ace@example.com'])('rejects %p', (email) => {
      expect(rejectedAt(withValue(path, email), path)).toEqual([
        `${path} must be an email address containing @`,
      ]);
    });
  });

  it.each([
    'items',
    'items[0].quantity',
    'items[1].sku_number',
    'package_number',
    'warehouse_code',
    'shipper.last_name',
    'shipper.phone',
    'shipper.address1',
    'shipper.city',
    'shipper.province',
    'shipper.country',
    'shipper.company_name',
  ])('rejects a missing %s', (path) => {
    expect(rejectedAt(withValue(path, undefined), path)).toEqual([`${path} is required`]);
  });

  it.each([
    'carrier',
    'tracking_no',
    'expected_inbound_date',
    'reference',
    'remarks',
    'shipper',
    'shipper.first_name',
    'shipper.email',
    'shipper.address2',
    'shipper.zip_code',
    'shipper.district',
  ])('accepts a missing optional %s', (path) => {
    expect(errors(withValue(path, undefined))).toEqual([]);
  });

  it.each(['warehouse_code', 'items[0].sku_number', 'shipper.last_name', 'shipper.company_name'])(
    'rejects an empty required %s',
    (path) => {
      expect(rejectedAt(withValue(path, ''), path)).toContain(`${path} should not be empty`);
    },
  );

  describe('expected_inbound_date (yyyy-MM-dd, a real date)', () => {
    const path = 'expected_inbound_date';

    it.each(['2025-08-15', '2024-02-29', '2025-12-31', '2025-01-01'])('accepts %s', (date) => {
      expect(errors(withValue(path, date))).toEqual([]);
    });

    it.each([
      '2025-02-30',
      '2025-02-29',
      '2025-13-01',
      '2025-00-10',
      '2025-04-31',
      '2025-8-15',
      '15/08/2025',
      '2025-08-15T00:00:00Z',
      '',
      20250815,
    ])('rejects %p', (date) => {
      expect(rejectedAt(withValue(path, date), path)).toEqual([
        `${path} must be a calendar date in the format yyyy-MM-dd`,
      ]);
    });
  });

  describe('items[0].quantity: integer, at least 1', () => {
    const path = 'items[0].quantity';

    it.each([1, 2_147_483_647])('accepts %p', (quantity) => {
      expect(errors(withValue(path, quantity))).toEqual([]);
    });

    it.each([0, -3])('rejects %p', (quantity) => {
      expect(rejectedAt(withValue(path, quantity), path)).toEqual([
        `${path} must not be less than 1`,
      ]);
    });

    it.each([2.5, '10'])('rejects the non-integer %p', (quantity) => {
      expect(rejectedAt(withValue(path, quantity), path)).toContain(
        `${path} must be an integer number`,
      );
    });
  });

  describe('package_number: integer, 0 means not yet known', () => {
    it.each([0, 1, 2_147_483_647])('accepts %p', (count) => {
      expect(errors(withValue('package_number', count))).toEqual([]);
    });

    it('rejects a negative count', () => {
      expect(rejectedAt(withValue('package_number', -1), 'package_number')).toEqual([
        'package_number must not be less than 0',
      ]);
    });

    it('rejects null', () => {
      expect(rejectedAt(withValue('package_number', null), 'package_number')).toEqual([
        'package_number is required',
      ]);
    });

    it.each([1.5, '3'])('rejects the non-integer %p', (count) => {
      expect(rejectedAt(withValue('package_number', count), 'package_number')).toContain(
        'package_number must be an integer number',
      );
    });
  });

  describe('items', () => {
    it('needs at least one line', () => {
      expect(rejectedAt(withValue('items', []), 'items')).toEqual(['items should not be empty']);
    });

    it.each<[string, unknown]>([
      ['an object', { quantity: 1, sku_number: '1' }],
      ['a string element', ['1001']],
    ])('rejects %s', (_case, items) => {
      expect(rejectedAt(withValue('items', items), 'items').length).toBeGreaterThan(0);
    });
  });

  it('rejects a non-object shipper', () => {
    expect(rejectedAt(withValue('shipper', 'Grace Hopper'), 'shipper')).toContain(
      'shipper must be an object',
    );
  });

  it('strips unknown properties at every level', () => {
    const plain = validInbound();
    Object.assign(plain, { id: 4, status: 'Completed', exceptional: true });
    Object.assign(plain.items[0], { actual_quantity: 100 });
    Object.assign(plain.shipper, { country_code: 'US' });
    const value = valueOf(CreateInboundRequest, plain);
    expect(value).not.toHaveProperty('id');
    expect(value).not.toHaveProperty('status');
    expect(value).not.toHaveProperty('exceptional');
    expect(value.items[0]).not.toHaveProperty('actual_quantity');
    expect(value.shipper).not.toHaveProperty('country_code');
  });

  it('has exactly the spec inbound states', () => {
    expect(Object.values(InboundStatus)).toEqual([
      'Pending',
      'Partial',
      'Completed',
      'Cancelled',
      'Failure',
    ]);
  });

  it('exports the spec limits', () => {
    expect(INBOUND_LIMITS).toEqual({
      carrier: 32,
      reference: 47,
      warehouse_code: 32,
      item: { sku_number: 128 },
      // House limits: the spec gives these none.
      tracking_no: 255,
      remarks: 2000,
    });
  });
});
