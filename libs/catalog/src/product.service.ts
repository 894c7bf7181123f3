import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In, QueryFailedError, Repository } from 'typeorm';
import {
  CatalogErrorCode,
  CatalogEvent,
  CreateProductRequest,
  ProductView,
} from '@consign/contracts';
import { CommandLedger, DomainError, Outbox } from '@consign/platform';
import { catalogDatabase } from './catalog.database';
import { ProductEntity } from './product.entity';
import { VariantEntity } from './variant.entity';
import { toProductView } from './product.mapper';

const UNIQUE_VIOLATION = '23505';

/** Products and their variants: the catalogue's use cases. */
@Injectable()
export class ProductService {
  constructor(
    @Inject(catalogDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
    @Inject(catalogDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  async create(merchantId: number, request: CreateProductRequest): Promise<number> {
    const variants = request.variants ?? [];
    let productId: number;
    try {
      productId = await this.commands.transaction(async (manager) => {
        await this.refuseTakenSkus(
          manager.getRepository(VariantEntity),
          merchantId,
          variants.map((v) => v.sku),
        );
        const product = await manager.getRepository(ProductEntity).save({
          merchantId,
          title: request.title,
          bodyHtml: request.body_html ?? null,
          vendor: request.vendor ?? null,
          tags: request.tags ?? [],
          currency: request.currency,
          source: request.source ?? null,
          options: request.options ?? null,
          category: request.category ?? null,
          images:
            request.images?.map((image) => ({ url: image.url, title: image.title ?? null })) ??
            null,
        });
        const saved = await manager.getRepository(VariantEntity).save(
          variants.map((variant) => ({
            productId: product.id,
            merchantId,
            sku: variant.sku,
            title: variant.title,
            weight: variant.weight ?? null,
            weightUnit: variant.weight_unit,
            requiresShipping: variant.requires_shipping ?? true,
            retailPrice: variant.retail_price,
            compareAtPrice: variant.compare_at_price ?? null,
            unit: variant.unit,
            options: variant.options ?? null,
          })),
        );
        await this.outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId,
          aggregateId: product.id,
          payload: {
            product_id: product.id,
            variants: saved.map((v) => ({ id: v.id, sku: v.sku })),
          },
        });
        return product.id;
      });
    } catch (error: unknown) {
      // Two requests racing for the same SKU: the unique index decides, and the loser hears why.
      if (
        error instanceof QueryFailedError &&
        (error.driverError as { code?: string }).code === UNIQUE_VIOLATION
      ) {
        throw new DomainError(
          CatalogErrorCode.DuplicateSku,
          'A variant with one of these skus already exists.',
        );
      }
      throw error;
    }
    this.outbox.nudge();
    return productId;
  }

  async get(merchantId: number, productId: number): Promise<ProductView> {
    // One statement: findOne with relations would first run a DISTINCT id query (two round
    // trips per read on the hottest catalogue path).
    const product = await this.dataSource
      .getRepository(ProductEntity)
      .createQueryBuilder('product')
      .leftJoinAndSelect('product.variants', 'variant')
      .where('product.id = :productId AND product.merchantId = :merchantId', {
        productId,
        merchantId,
      })
      .getOne();
    if (!product) throw new DomainError(CatalogErrorCode.ProductNotFound, 'Product not found.');
    return toProductView(product);
  }

  async listAll(merchantId: number): Promise<ProductView[]> {
    const products = await this.dataSource
      .getRepository(ProductEntity)
      .find({ where: { merchantId }, relations: { variants: true }, order: { id: 'DESC' } });
    return products.map(toProductView);
  }

  private async refuseTakenSkus(
    variants: Repository<VariantEntity>,
    merchantId: number,
    skus: string[],
  ): Promise<void> {
    if (skus.length === 0) return;
    const taken = await variants.find({
      where: { merchantId, sku: In(skus) },
      select: { sku: true },
    });
    if (taken.length) {
      const list = taken.map((v) => v.sku).join(', ');
      throw new DomainError(
        CatalogErrorCode.DuplicateSku,
        `variants[].sku already used by another variant: ${list}`,
      );
    }
  }
}
