export * from './carrier-sandbox.module';
export * from './carrier-sandbox.config';
export * from './carrier-sandbox.database';
export * from './carrier-vocabulary';
export * from './sandbox-script';
export * from './sandbox-events';
