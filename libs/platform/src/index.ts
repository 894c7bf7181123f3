export {
  busServerOptions,
  claimEmbeddedDatabase,
  databaseTargetOf,
  PlatformModule,
} from './platform.module';
export { runMain } from './bootstrap/run-main';
export { runServiceProcess } from './bootstrap/service-app';
export { exitCleanlyOnSignals, runBeforeExit } from './bootstrap/graceful-shutdown';
export { GRACEFUL_FASTIFY_OPTIONS } from './health/shutdown-state';
export { healthModule } from './health/health.module';
