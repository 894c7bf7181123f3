export * from './domain-error';
export * from './clock';
export * from './periodic';
