export * from './message';
export * from './topics';
export * from './catalog.commands';
export * from './catalog.errors';
export * from './label.commands';
export * from './label.errors';
export * from './label.events';
