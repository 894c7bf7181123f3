export * from './platform.module';
export * from './bootstrap/run-main';
export * from './bootstrap/service-app';
export * from './bootstrap/graceful-shutdown';
export * from './health/shutdown-state';
export * from './health/health.module';
