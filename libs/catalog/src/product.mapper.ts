import { ProductView, VariantView } from '@consign/contracts';
import { ProductEntity } from './product.entity';
import { VariantEntity } from './variant.entity';

export function toVariantView(variant: VariantEntity): VariantView {
  return {
    id: variant.id,
    title: variant.title,
    sku: variant.sku,
    weight: variant.weight,
    weight_unit: variant.weightUnit,
    requires_shipping: variant.requiresShipping,
    retail_price: variant.retailPrice,
    compare_at_price: variant.compareAtPrice,
    unit: variant.unit,
    created_time: variant.createdAt.toISOString(),
    updated_time: variant.updatedAt.toISOString(),
    options: variant.options,
  };
}

export function toProductView(product: ProductEntity): ProductView {
  return {
    id: product.id,
    title: product.title,
    body_html: product.bodyHtml,
    vendor: product.vendor,
    created_time: product.createdAt.toISOString(),
    updated_time: product.updatedAt.toISOString(),
    tags: product.tags,
    currency: product.currency,
    source: product.source,
    options: product.options,
    category: product.category,
    variants: [...(product.variants ?? [])].sort((a, b) => a.id - b.id).map(toVariantView),
    images: product.images,
  };
}
