import { ProductView, VariantView } from '@consign/contracts';
import { ProductRow, VariantRow } from './product.repository';

export function toVariantView(variant: VariantRow): VariantView {
  return {
    id: variant.id,
    title: variant.title,
    sku: variant.sku,
    weight: variant.weight,
    weight_unit: variant.weight_unit,
    requires_shipping: variant.requires_shipping,
    retail_price: variant.retail_price,
    compare_at_price: variant.compare_at_price,
    unit: variant.unit,
    created_time: variant.created_at.toISOString(),
    updated_time: variant.updated_at.toISOString(),
    options: variant.options,
  };
}

export function toProductView(product: ProductRow): ProductView {
  return {
    id: product.id,
    title: product.title,
    body_html: product.body_html,
    vendor: product.vendor,
    created_time: product.created_at.toISOString(),
    updated_time: product.updated_at.toISOString(),
    tags: product.tags,
    currency: product.currency,
    source: product.source,
    options: product.options,
    category: product.category,
    variants: [...product.variants].sort((a, b) => a.id - b.id).map(toVariantView),
    images: product.images,
  };
}
