import { Injectable } from '@nestjs/common';
import {
  CreateProductRequest,
  CreateVariantRequest,
  ResolvedVariant,
  VariantUnit,
  WeightUnit,
} from '@consign/contracts';
import { Sql } from '@consign/database';

const PRODUCT = '"catalog"."product"';
const VARIANT = '"catalog"."variant"';
const NUMERIC = /^[1-9]\d{0,15}$/;

export interface StoredImage {
  url: string;
  title: string | null;
}

/** A row of catalog.variant. */
export interface VariantRow {
  id: number;
  title: string;
  sku: string;
  weight: number | null;
  weight_unit: WeightUnit;
  requires_shipping: boolean;
  retail_price: number;
  compare_at_price: number | null;
  unit: VariantUnit;
  options: Record<string, string> | null;
  created_at: Date;
  updated_at: Date;
}

/** A row of catalog.product with its variants. */
export interface ProductRow {
  id: number;
  title: string;
  body_html: string | null;
  vendor: string | null;
  tags: string[];
  currency: string;
  source: string | null;
  options: Record<string, string[]> | null;
  category: string | null;
  images: StoredImage[] | null;
  created_at: Date;
  updated_at: Date;
  variants: VariantRow[];
}

/** A product's columns and, prefixed `variant_`, one of its variants' (null without any). */
const PRODUCT_WITH_VARIANTS = `SELECT p.id, p.title, p.body_html, p.vendor, p.tags, p.currency,
    p.source, p.options, p.category, p.images, p.created_at, p.updated_at,
    v.id AS variant_id, v.title AS variant_title, v.sku AS variant_sku, v.weight AS variant_weight,
    v.weight_unit AS variant_weight_unit, v.requires_shipping AS variant_requires_shipping,
    v.retail_price AS variant_retail_price, v.compare_at_price AS variant_compare_at_price,
    v.unit AS variant_unit, v.options AS variant_options, v.created_at AS variant_created_at,
    v.updated_at AS variant_updated_at
  FROM ${PRODUCT} p LEFT JOIN ${VARIANT} v ON v.product_id = p.id`;

type JoinedRow = Omit<ProductRow, 'variants'> & {
  [K in keyof VariantRow as `variant_${K}`]: VariantRow[K] | null;
};

/**
 * SQL of the product aggregate: a product and its variants (a variant's id is the `sku_number`
 * orders and inbound orders refer to). A product is read with its variants in one statement.
 */
@Injectable()
export class ProductRepository {
  /** Which of these sku codes the merchant's variants already use. */
  async takenSkus(sql: Sql, merchantId: number, skus: string[]): Promise<string[]> {
    const rows = (await sql.query(
      `SELECT sku FROM ${VARIANT} WHERE merchant_id = $1 AND sku = ANY($2::varchar[])`,
      [merchantId, skus],
    )) as { sku: string }[];
    return rows.map((row) => row.sku);
  }

  /** Writes the product (without its variants) and answers its id. */
  async insert(sql: Sql, merchantId: number, request: CreateProductRequest): Promise<number> {
    const [row] = (await sql.query(
      `INSERT INTO ${PRODUCT} (merchant_id, title, body_html, vendor, tags, currency, source,
         options, category, images)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        merchantId,
        request.title,
        request.body_html ?? null,
        request.vendor ?? null,
        JSON.stringify(request.tags ?? []),
        request.currency,
        request.source ?? null,
        jsonOrNull(request.options ?? null),
        request.category ?? null,
        jsonOrNull(
          request.images?.map((image) => ({ url: image.url, title: image.title ?? null })) ?? null,
        ),
      ],
    )) as { id: number }[];
    return row.id;
  }

  /** Writes the product's variants in one statement; answers their ids and skus, in request order. */
  async insertVariants(
    sql: Sql,
    merchantId: number,
    productId: number,
    variants: CreateVariantRequest[],
  ): Promise<{ id: number; sku: string }[]> {
    if (variants.length === 0) return [];
    const rows = (await sql.query(
      `INSERT INTO ${VARIANT} (product_id, merchant_id, sku, title, weight, weight_unit,
         requires_shipping, retail_price, compare_at_price, unit, options)
       SELECT $1, $2, s, t, w, wu, rs, rp, cp, u, o
         FROM unnest($3::varchar[], $4::varchar[], $5::numeric[], $6::varchar[], $7::boolean[],
           $8::numeric[], $9::numeric[], $10::varchar[], $11::jsonb[])
           WITH ORDINALITY AS x(s, t, w, wu, rs, rp, cp, u, o, n)
        ORDER BY n
       RETURNING id, sku`,
      [
        productId,
        merchantId,
        variants.map((v) => v.sku),
        variants.map((v) => v.title),
        variants.map((v) => v.weight ?? null),
        variants.map((v) => v.weight_unit),
        variants.map((v) => v.requires_shipping ?? true),
        variants.map((v) => v.retail_price),
        variants.map((v) => v.compare_at_price ?? null),
        variants.map((v) => v.unit),
        variants.map((v) => jsonOrNull(v.options ?? null)),
      ],
    )) as { id: number; sku: string }[];
    // Identities are drawn in insertion (request) order.
    return rows.sort((a, b) => a.id - b.id);
  }

  async view(sql: Sql, merchantId: number, productId: number): Promise<ProductRow | undefined> {
    const rows = (await sql.query(
      `${PRODUCT_WITH_VARIANTS} WHERE p.id = $1 AND p.merchant_id = $2`,
      [productId, merchantId],
    )) as JoinedRow[];
    return groupProducts(rows)[0];
  }

  /** All the merchant's products, newest first. */
  async listAll(sql: Sql, merchantId: number): Promise<ProductRow[]> {
    const rows = (await sql.query(
      `${PRODUCT_WITH_VARIANTS} WHERE p.merchant_id = $1 ORDER BY p.id DESC`,
      [merchantId],
    )) as JoinedRow[];
    return groupProducts(rows);
  }

  /**
   * Which of the merchant's variants each `sku_number` names. ARCHITECTURE.md: the sku_number is
   * the variant id, as the spec says; a variant's sku code is also accepted. A sku_number that is
   * both some variant's id and another's sku code names the variant with that id. Unknown ones are
   * left out.
   */
  async resolveVariants(
    sql: Sql,
    merchantId: number,
    skuNumbers: readonly string[],
  ): Promise<ResolvedVariant[]> {
    const ids = skuNumbers
      .filter((s) => NUMERIC.test(s))
      .map(Number)
      .filter((id) => Number.isSafeInteger(id));
    const rows = (await sql.query(
      `SELECT id, sku FROM ${VARIANT}
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

  /** Those of these variant ids that are the merchant's. */
  async knownVariantIds(sql: Sql, merchantId: number, ids: number[]): Promise<number[]> {
    const rows = (await sql.query(
      `SELECT id FROM ${VARIANT} WHERE merchant_id = $1 AND id = ANY($2::bigint[])`,
      [merchantId, ids],
    )) as { id: number }[];
    return rows.map((row) => row.id);
  }
}

/** As TypeORM wrote a jsonb column: null stays SQL NULL, anything else is JSON text. */
function jsonOrNull(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

/** The joined rows folded into products (in row order), each with its variants. */
function groupProducts(rows: JoinedRow[]): ProductRow[] {
  const products = new Map<number, ProductRow>();
  for (const row of rows) {
    let product = products.get(row.id);
    if (!product) {
      product = {
        id: row.id,
        title: row.title,
        body_html: row.body_html,
        vendor: row.vendor,
        tags: row.tags,
        currency: row.currency,
        source: row.source,
        options: row.options,
        category: row.category,
        images: row.images,
        created_at: row.created_at,
        updated_at: row.updated_at,
        variants: [],
      };
      products.set(row.id, product);
    }
    if (row.variant_id === null) continue;
    product.variants.push({
      id: row.variant_id,
      title: row.variant_title!,
      sku: row.variant_sku!,
      weight: row.variant_weight,
      weight_unit: row.variant_weight_unit!,
      requires_shipping: row.variant_requires_shipping!,
      retail_price: row.variant_retail_price!,
      compare_at_price: row.variant_compare_at_price,
      unit: row.variant_unit!,
      options: row.variant_options,
      created_at: row.variant_created_at!,
      updated_at: row.variant_updated_at!,
    });
  }
  return [...products.values()];
}
