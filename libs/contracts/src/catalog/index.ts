export * from './catalog.limits';
export * from './catalog.validator';
export * from './weight-unit';
export * from './variant-unit';
export * from './product-image.dto';
export * from './create-variant-request.dto';
export * from './create-product-request.dto';
export * from './product-view.dto';
