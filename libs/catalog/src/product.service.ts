import { Inject, Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import {
  CatalogErrorCode,
  CatalogEvent,
  CreateProductRequest,
  ProductView,
} from '@consign/contracts';
import { CommandLedger, Outbox } from '@consign/messaging';
import { DomainError } from '@consign/core';
import { Sql } from '@consign/database';
import { catalogDatabase } from './catalog.database';
import { ProductRepository } from './product.repository';
import { toProductView } from './product.mapper';

const UNIQUE_VIOLATION = '23505';

/** Products and their variants: the catalogue's use cases. */
@Injectable()
export class ProductService {
  constructor(
    @Inject(catalogDatabase.dataSource) private readonly dataSource: DataSource,
    @Inject(catalogDatabase.outbox) private readonly outbox: Outbox,
    @Inject(catalogDatabase.commands) private readonly commands: CommandLedger,
    private readonly products: ProductRepository,
  ) {}

  async create(merchantId: number, request: CreateProductRequest): Promise<number> {
    const variants = request.variants ?? [];
    let productId: number;
    try {
      productId = await this.commands.transaction(async (manager) => {
        await this.refuseTakenSkus(
          manager,
          merchantId,
          variants.map((v) => v.sku),
        );
        const id = await this.products.insert(manager, merchantId, request);
        const saved = await this.products.insertVariants(manager, merchantId, id, variants);
        await this.outbox.add(manager, CatalogEvent.ProductCreated, {
          merchantId,
          aggregateId: id,
          payload: {
            product_id: id,
            variants: saved.map((v) => ({ id: v.id, sku: v.sku })),
          },
        });
        return id;
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
    return productId;
  }

  async get(merchantId: number, productId: number): Promise<ProductView> {
    // One statement: the product and its variants joined (the hottest catalogue read).
    const product = await this.products.view(this.dataSource, merchantId, productId);
    if (!product) throw new DomainError(CatalogErrorCode.ProductNotFound, 'Product not found.');
    return toProductView(product);
  }

  async listAll(merchantId: number): Promise<ProductView[]> {
    const products = await this.products.listAll(this.dataSource, merchantId);
    return products.map(toProductView);
  }

  private async refuseTakenSkus(sql: Sql, merchantId: number, skus: string[]): Promise<void> {
    if (skus.length === 0) return;
    const taken = await this.products.takenSkus(sql, merchantId, skus);
    if (taken.length) {
      const list = taken.join(', ');
      throw new DomainError(
        CatalogErrorCode.DuplicateSku,
        `variants[].sku already used by another variant: ${list}`,
      );
    }
  }
}
