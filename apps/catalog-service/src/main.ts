import './tracing';
import { CatalogModule } from '@consign/catalog';
import { OrderTopic } from '@consign/contracts';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

// Stock reconciliation asks order-service for the states of orders holding reservations.
runMain('catalog-service', () =>
  runServiceProcess('catalog-service', CatalogModule, { requests: [OrderTopic.States] }),
);
