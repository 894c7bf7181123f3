import { ResolvedVariant } from '@consign/contracts';
import { Sql } from '@consign/platform';

const NUMERIC = /^[1-9]\d{0,15}$/;

/**
 * Which of the merchant's variants each `sku_number` names. ARCHITECTURE.md: the sku_number is
 * the variant id, as the spec says; a variant's sku code is also accepted. A sku_number that is
 * both some variant's id and another's sku code names the variant with that id. Unknown ones are
 * left out.
 */
export async function resolveVariants(
  sql: Sql,
  merchantId: number,
  skuNumbers: readonly string[],
): Promise<ResolvedVariant[]> {
  const ids = skuNumbers
    .filter((s) => NUMERIC.test(s))
    .map(Number)
    .filter((id) => Number.isSafeInteger(id));
  const rows = (await sql.query(
    `SELECT id, sku FROM "catalog"."variant"
     WHERE merchant_id = $1 AND (sku = ANY($2::varchar[]) OR id = ANY($3::bigint[]))`,
    [merchantId, skuNumbers, ids],
  )) as { id: number; sku: string }[];
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const bySku = new Map(rows.map((r) => [r.sku, r]));
  return skuNumbers.flatMap((sku_number) => {
    const variant = byId.get(sku_number) ?? bySku.get(sku_number);
    return variant ? [{ sku_number, variant_id: variant.id, sku: variant.sku }] : [];
  });
}

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
