import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CatalogCommands, ProductView, Reply } from '@consign/contracts';
import { CommandLedger, handleCommand } from '@consign/messaging';
import { catalogDatabase } from './catalog.database';
import { ProductService } from './product.service';

/** catalog-service's bus interface: thin, validate and delegate. */
@Controller()
export class CatalogHandlers {
  constructor(
    private readonly products: ProductService,
    @Inject(catalogDatabase.commands) private readonly commands: CommandLedger,
  ) {}

  @MessagePattern(CatalogCommands.CreateProduct.topic)
  create(@Payload() payload: unknown): Promise<Reply<number>> {
    return handleCommand(
      CatalogCommands.CreateProduct,
      payload,
      (c) => this.products.create(c.merchant_id, c.product),
      this.commands,
    );
  }

  @MessagePattern(CatalogCommands.GetProduct.topic)
  get(@Payload() payload: unknown): Promise<Reply<ProductView>> {
    return handleCommand(CatalogCommands.GetProduct, payload, (q) =>
      this.products.get(q.merchant_id, q.product_id),
    );
  }

  @MessagePattern(CatalogCommands.ListProducts.topic)
  list(@Payload() payload: unknown): Promise<Reply<ProductView[]>> {
    return handleCommand(CatalogCommands.ListProducts, payload, (q) =>
      this.products.listAll(q.merchant_id),
    );
  }
}
