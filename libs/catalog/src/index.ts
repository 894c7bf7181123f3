export * from './catalog.module';
export * from './catalog.database';
export * from './product.service';
