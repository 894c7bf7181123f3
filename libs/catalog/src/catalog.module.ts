import { Module } from '@nestjs/common';
import { loadConfigOf } from '@consign/config';
import { CatalogConfig } from './catalog.config';
import { catalogDatabase } from './catalog.database';
import { CatalogHandlers } from './catalog.handlers';
import { ProductService } from './product.service';
import { StockHandlers } from './stock.handlers';
import { StockReservationService } from './stock-reservation.service';
import { StockService } from './stock.service';
import { StockReconciler } from './stock-reconciler';
import { ProductRepository } from './product.repository';
import { StockRepository } from './stock.repository';
import { StockReservationRepository } from './stock-reservation.repository';

/** catalog-service: products, variants and stock per warehouse. */
@Module({
  imports: [catalogDatabase.module],
  controllers: [CatalogHandlers, StockHandlers],
  providers: [
    ProductService,
    StockService,
    StockReservationService,
    StockReconciler,
    ProductRepository,
    StockRepository,
    StockReservationRepository,
    { provide: CatalogConfig, useFactory: () => loadConfigOf(CatalogConfig) },
  ],
  exports: [ProductService, StockService, StockReservationService],
})
export class CatalogModule {}
