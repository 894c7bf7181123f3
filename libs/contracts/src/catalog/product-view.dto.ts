import { VariantUnit } from './variant-unit';
import { WeightUnit } from './weight-unit';

/** A product image in a response. */
export class ImageView {
  url!: string;
  title!: string | null;
}

/** A variant in a response. */
export class VariantView {
  id!: number;
  title!: string;
  sku!: string;
  /** Number(12,2), in `weight_unit`. */
  weight!: number | null;
  weight_unit!: WeightUnit;
  requires_shipping!: boolean;
  /** Number(12,2). */
  retail_price!: number;
  /** Number(12,2). */
  compare_at_price!: number | null;
  unit!: VariantUnit;
  /** ISO 8601 UTC. */
  created_time!: string | null;
  /** ISO 8601 UTC. */
  updated_time!: string | null;
  /** Option name to this variant's value. */
  options!: Record<string, string> | null;
}

/** A product (endpoints 13 and 14). */
export class ProductView {
  id!: number;
  title!: string;
  /** Description (HTML). */
  body_html!: string | null;
  vendor!: string | null;
  /** ISO 8601 UTC. */
  created_time!: string | null;
  /** ISO 8601 UTC. */
  updated_time!: string | null;
  tags!: string[];
  /** ISO 4217. */
  currency!: string;
  /** Product source. */
  source!: string | null;
  /** Option name to the list of its values. */
  options!: Record<string, string[]> | null;
  category!: string | null;
  variants!: VariantView[] | null;
  images!: ImageView[] | null;
}
