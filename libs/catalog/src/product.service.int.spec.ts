import {
  CatalogErrorCode,
  CatalogEvent,
  CreateProductRequest,
  VariantUnit,
  WeightUnit,
} from '@consign/contracts';
import { CommandLedger, Outbox } from '@consign/messaging';
import { DatabaseHost } from '@consign/database';
import { DomainError } from '@consign/core';
import { InProcessBroker, InProcessClient } from '@consign/bus';
import { DataSource } from 'typeorm';
import { catalogDatabase } from './catalog.database';
import { ProductService } from './product.service';
import { createTestDatabase, TestDatabase } from '@consign/testing';
import { ProductRepository } from './product.repository';

function productRequest(skus: string[]): CreateProductRequest {
  return Object.assign(new CreateProductRequest(), {
    title: 'Tee',
    currency: 'EUR',
    tags: ['a'],
    variants: skus.map((sku) => ({
      sku,
      title: sku,
      retail_price: 10.1,
      weight: 0.3,
      weight_unit: WeightUnit.Kg,
      unit: VariantUnit.Pcs,
      requires_shipping: true,
    })),
  });
}

describe('ProductService', () => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  let broker: InProcessBroker;
  let outbox: Outbox;
  let products: ProductService;

  beforeAll(async () => {
    database = await createTestDatabase();
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource(catalogDatabase.options);
    broker = new InProcessBroker();
    outbox = new Outbox(dataSource, new InProcessClient(broker), 'catalog');
    products = new ProductService(
      dataSource,
      outbox,
      new CommandLedger(dataSource, 'catalog'),
      new ProductRepository(),
    );
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  it('creates a product with its variants and announces it through the outbox', async () => {
    const events: unknown[] = [];
    broker.registerEventHandler(CatalogEvent.ProductCreated, async (event) => {
      events.push(event);
    });
    const id = await products.create(11, productRequest(['S-1', 'M-1']));
    const view = await products.get(11, id);
    expect(view).toMatchObject({ id, title: 'Tee', currency: 'EUR', tags: ['a'], images: null });
    expect(view.variants!.map((v) => [v.sku, v.retail_price, v.weight])).toEqual([
      ['S-1', 10.1, 0.3],
      ['M-1', 10.1, 0.3],
    ]);
    await outbox.flush();
    expect(events).toEqual([
      expect.objectContaining({
        merchant_id: 11,
        aggregate_id: String(id),
        payload: {
          product_id: id,
          variants: view.variants!.map((v) => ({ id: v.id, sku: v.sku })),
        },
      }),
    ]);
  });

  it('refuses a sku the merchant already uses, and writes nothing', async () => {
    await products.create(12, productRequest(['DUP-1']));
    const before = (await products.listAll(12)).length;
    await expect(products.create(12, productRequest(['NEW-1', 'DUP-1']))).rejects.toMatchObject({
      code: CatalogErrorCode.DuplicateSku,
    });
    expect(await products.listAll(12)).toHaveLength(before);
    // Another merchant may use the same sku.
    await expect(products.create(13, productRequest(['DUP-1']))).resolves.toEqual(
      expect.any(Number),
    );
  });

  it('lets exactly one of two racing creates with the same sku win', async () => {
    const results = await Promise.allSettled([
      products.create(14, productRequest(['RACE-1'])),
      products.create(14, productRequest(['RACE-1'])),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected?.reason).toBeInstanceOf(DomainError);
    expect(rejected?.reason).toMatchObject({ code: CatalogErrorCode.DuplicateSku });
  });

  it('writes absent json values as SQL NULL (as the entities did), an absent tags list as []', async () => {
    const id = await products.create(
      17,
      Object.assign(productRequest(['NULLS-1']), { tags: undefined }),
    );
    const [product] = (await dataSource.query(
      `SELECT options IS NULL AS options, images IS NULL AS images, tags FROM "catalog"."product" WHERE id = $1`,
      [id],
    )) as { options: boolean; images: boolean; tags: unknown }[];
    expect(product).toEqual({ options: true, images: true, tags: [] });
    const [variant] = (await dataSource.query(
      `SELECT options IS NULL AS options, compare_at_price FROM "catalog"."variant" WHERE product_id = $1`,
      [id],
    )) as { options: boolean; compare_at_price: number | null }[];
    expect(variant).toEqual({ options: true, compare_at_price: null });
  });

  it("does not find another merchant's product", async () => {
    const id = await products.create(15, productRequest([]));
    await expect(products.get(16, id)).rejects.toMatchObject({
      code: CatalogErrorCode.ProductNotFound,
    });
    expect(await products.listAll(16)).toEqual([]);
  });
});
