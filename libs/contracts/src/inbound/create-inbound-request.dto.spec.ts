import { ShipperDto } from '../common/address.dto';
import { CreateInboundRequest } from './create-inbound-request.dto';
import { INBOUND_LIMITS } from './inbound.limits';
import { InboundItemRequest } from './inbound-item-request.dto';
import { InboundStatus } from './inbound-status';
import {
  contractCheck,
  describeEmails,
  describeMaxLengths,
  describeValues,
  itAcceptsEach,
  itAcceptsMissing,
  itRejectsEach,
  itRejectsEmpty,
  itRejectsMissing,
  itRejectsNonIntegers,
  minimalInbound,
  validInbound,
  valueOf,
} from '@consign/testing/fixtures';

const check = contractCheck(CreateInboundRequest, validInbound);
const { errors, rejectedAt, withValue } = check;

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

  describeMaxLengths(check, [
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
  ]);

  describeEmails(check, ['shipper.email'], ['grace.example.com', 'grace@', 'gr ace@example.com']);

  itRejectsMissing(check, [
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
  ]);

  itAcceptsMissing(check, [
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
  ]);

  itRejectsEmpty(check, [
    'warehouse_code',
    'items[0].sku_number',
    'shipper.last_name',
    'shipper.company_name',
  ]);

  describeValues(
    check,
    'expected_inbound_date (yyyy-MM-dd, a real date)',
    'expected_inbound_date',
    {
      accepted: ['2025-08-15', '2024-02-29', '2025-12-31', '2025-01-01'],
      rejected: [
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
      ],
      message: 'expected_inbound_date must be a calendar date in the format yyyy-MM-dd',
    },
  );

  describe('items[0].quantity: integer, at least 1', () => {
    const path = 'items[0].quantity';

    itAcceptsEach(check, path, [1, 2_147_483_647]);
    itRejectsEach(check, path, [0, -3], `${path} must not be less than 1`);
    itRejectsNonIntegers(check, path, [2.5, '10']);
  });

  describe('package_number: integer, 0 means not yet known', () => {
    itAcceptsEach(check, 'package_number', [0, 1, 2_147_483_647]);

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

    itRejectsNonIntegers(check, 'package_number', [1.5, '3']);
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
