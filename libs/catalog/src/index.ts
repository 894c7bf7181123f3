export * from './catalog.module';
export * from './catalog.database';
export * from './product.service';
export * from './stock.service';
export * from './stock-reservation.service';
