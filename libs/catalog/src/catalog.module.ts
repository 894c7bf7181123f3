import { Module } from '@nestjs/common';
import { catalogDatabase } from './catalog.database';
import { CatalogHandlers } from './catalog.handlers';
import { ProductService } from './product.service';

/** catalog-service: products, variants and stock per warehouse. */
@Module({
  imports: [catalogDatabase.module],
  controllers: [CatalogHandlers],
  providers: [ProductService],
  exports: [ProductService],
})
export class CatalogModule {}
