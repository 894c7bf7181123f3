import { InboundErrorCode, InboundStatus } from '@consign/contracts';
import { ItemCount, applyReceipt } from './inbound.receipt';

const items: ItemCount[] = [
  { line_no: 1, sku_number: '1001', variant_id: 1001, expect_quantity: 100, actual_quantity: 0 },
  { line_no: 2, sku_number: 'TEE-M', variant_id: 1002, expect_quantity: 5, actual_quantity: 0 },
];

describe('applyReceipt', () => {
  it('is Completed without remarks when exactly what was expected arrived', () => {
    const outcome = applyReceipt(1, items, {
      items: [
        { sku_number: '1001', quantity: 100 },
        { sku_number: 'TEE-M', quantity: 5 },
      ],
    });
    expect(outcome).toEqual({
      items: [
        { ...items[0], actual_quantity: 100 },
        { ...items[1], actual_quantity: 5 },
      ],
      received: [
        { variant_id: 1001, sku_number: '1001', quantity: 100 },
        { variant_id: 1002, sku_number: 'TEE-M', quantity: 5 },
      ],
      status: InboundStatus.Completed,
      exceptional: false,
      feedback: null,
    });
  });

  it('is Partial while something is still to come, then Completed by a later receipt', () => {
    const first = applyReceipt(1, items, { items: [{ sku_number: '1001', quantity: 60 }] });
    expect(first).toMatchObject({
      status: InboundStatus.Partial,
      exceptional: false,
      feedback: null,
    });
    expect(first.received).toEqual([{ variant_id: 1001, sku_number: '1001', quantity: 60 }]);
    const second = applyReceipt(1, first.items, {
      items: [
        { sku_number: '1001', quantity: 40 },
        { sku_number: 'TEE-M', quantity: 5 },
      ],
    });
    expect(second).toMatchObject({ status: InboundStatus.Completed, exceptional: false });
    expect(second.received.map((r) => r.quantity)).toEqual([40, 5]);
  });

  it('notes an over-receipt at once, and a shortfall when the delivery is declared complete', () => {
    const over = applyReceipt(1, items, { items: [{ sku_number: 'TEE-M', quantity: 6 }] });
    expect(over).toMatchObject({
      status: InboundStatus.Partial,
      exceptional: true,
      feedback: 'SKU TEE-M: expected 5, received 6 (1 over)',
    });
    const closed = applyReceipt(1, over.items, {
      items: [{ sku_number: '1001', quantity: 98 }],
      complete: true,
    });
    expect(closed).toMatchObject({
      status: InboundStatus.Completed,
      exceptional: true,
      feedback:
        'SKU 1001: expected 100, received 98 (2 short); SKU TEE-M: expected 5, received 6 (1 over)',
    });
  });

  it('accepts the variant id for an item named by its sku code, and sums repeated lines', () => {
    const outcome = applyReceipt(1, items, {
      items: [
        { sku_number: '1002', quantity: 2 },
        { sku_number: 'TEE-M', quantity: 1 },
      ],
    });
    expect(outcome.items[1].actual_quantity).toBe(3);
    expect(outcome.received).toEqual([{ variant_id: 1002, sku_number: 'TEE-M', quantity: 3 }]);
  });

  it('refuses a sku that is not an item of the order', () => {
    expect(() => applyReceipt(7, items, { items: [{ sku_number: 'NOPE', quantity: 1 }] })).toThrow(
      expect.objectContaining({
        code: InboundErrorCode.UnknownReference,
        message: 'Validation failed: items[0].sku_number NOPE is not an item of inbound order 7',
      }),
    );
  });
});
