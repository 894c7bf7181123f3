export * from './rate-cards/rate-card.error';
export * from './rate-cards/rate-card.loader';
export * from './rate-cards/reference-data';
export * from './pricing/rating-failure';
export * from './pricing/order-calculation';
export * from './pricing/freight-calculation';
