export * from './database-host';
export * from './data-dir-lock';
export * from './database.tokens';
export * from './pg-types';
export * from './sql';
