import {
  InboundErrorCode,
  InboundReceiptRequest,
  InboundStatus,
  MAX_COUNT,
} from '@consign/contracts';
import { DomainError } from '@consign/core';

/** An item of an inbound order with what arrived of it so far. */
export interface ItemCount {
  line_no: number;
  sku_number: string;
  variant_id: number;
  expect_quantity: number;
  actual_quantity: number;
}

export interface ReceiptOutcome {
  /** Every item with its new actual quantity. */
  items: ItemCount[];
  /** What this receipt added, per item (only items that got something). */
  received: { variant_id: number; sku_number: string; quantity: number }[];
  status: InboundStatus.Partial | InboundStatus.Completed;
  exceptional: boolean;
  feedback: string | null;
}

/**
 * Adds a receipt to an inbound order's counts. It is Completed when every expected quantity has
 * arrived, or when the receipt says the delivery is complete; Partial otherwise. A difference from
 * the expectation is noted in `feedback` (over-receipts at once, shortfalls on completion) and
 * makes the order `exceptional`. A receipt line names an item by its sku_number or variant id.
 */
export function applyReceipt(
  inboundId: number,
  items: readonly ItemCount[],
  receipt: InboundReceiptRequest,
): ReceiptOutcome {
  const added = new Map<number, number>();
  receipt.items.forEach((line, index) => {
    const item =
      items.find((i) => i.sku_number === line.sku_number) ??
      items.find((i) => String(i.variant_id) === line.sku_number);
    if (!item)
      throw new DomainError(
        InboundErrorCode.UnknownReference,
        `Validation failed: items[${index}].sku_number ${line.sku_number} is not an item of inbound order ${inboundId}`,
      );
    added.set(item.line_no, (added.get(item.line_no) ?? 0) + line.quantity);
  });
  const updated = items.map((item) => {
    const actual = item.actual_quantity + (added.get(item.line_no) ?? 0);
    if (actual > MAX_COUNT)
      throw new DomainError(
        InboundErrorCode.UnknownReference,
        `Validation failed: ${item.sku_number} would exceed ${MAX_COUNT} units received`,
      );
    return { ...item, actual_quantity: actual };
  });
  const complete =
    receipt.complete === true || updated.every((i) => i.actual_quantity >= i.expect_quantity);
  const differences = updated
    .filter((i) =>
      complete ? i.actual_quantity !== i.expect_quantity : i.actual_quantity > i.expect_quantity,
    )
    .map((i) => {
      const gap = i.actual_quantity - i.expect_quantity;
      return `SKU ${i.sku_number}: expected ${i.expect_quantity}, received ${i.actual_quantity} (${Math.abs(gap)} ${gap > 0 ? 'over' : 'short'})`;
    });
  return {
    items: updated,
    received: updated
      .filter((i) => (added.get(i.line_no) ?? 0) > 0)
      .map((i) => ({
        variant_id: i.variant_id,
        sku_number: i.sku_number,
        quantity: added.get(i.line_no)!,
      })),
    status: complete ? InboundStatus.Completed : InboundStatus.Partial,
    exceptional: differences.length > 0,
    feedback: differences.length ? differences.join('; ') : null,
  };
}
