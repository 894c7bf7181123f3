import { Module } from '@nestjs/common';
import { catalogDatabase } from './catalog.database';
import { CatalogHandlers } from './catalog.handlers';
import { ProductService } from './product.service';
import { StockHandlers } from './stock.handlers';
import { StockReservationService } from './stock-reservation.service';
import { StockService } from './stock.service';

/** catalog-service: products, variants and stock per warehouse. */
@Module({
  imports: [catalogDatabase.module],
  controllers: [CatalogHandlers, StockHandlers],
  providers: [ProductService, StockService, StockReservationService],
  exports: [ProductService, StockService, StockReservationService],
})
export class CatalogModule {}
