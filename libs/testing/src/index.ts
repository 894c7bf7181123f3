export * from './e2e/api-client';
export * from './e2e/processes';
export * from './e2e/deployments';
export * from './e2e/admin';
export * from './factories/product.factory';
export * from './kafka/mokapi-broker';
export * from './e2e/distributed';
export * from './factories/rating.factory';
