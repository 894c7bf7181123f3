/** Quantities per variant, in variant order (the order rows are locked in: no deadlocks). */
export function quantitiesPerVariant(
  lines: readonly { variant_id: number; quantity: number }[],
): { variant_id: number; quantity: number }[] {
  const totals = new Map<number, number>();
  for (const line of lines)
    totals.set(line.variant_id, (totals.get(line.variant_id) ?? 0) + line.quantity);
  return [...totals]
    .sort(([a], [b]) => a - b)
    .map(([variant_id, quantity]) => ({ variant_id, quantity }));
}
