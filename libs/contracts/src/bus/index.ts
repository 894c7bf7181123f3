export * from './message';
export * from './topics';
export * from './catalog.commands';
export * from './catalog.errors';
export * from './rating.commands';
export * from './rating.errors';
