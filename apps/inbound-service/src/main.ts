import './tracing';
import { CatalogTopic, RatingTopic } from '@consign/contracts';
import { InboundModule } from '@consign/inbound';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

// inbound-service asks rating-service whether the warehouse exists and catalog-service which
// variants the items name.
runMain('inbound-service', () =>
  runServiceProcess('inbound-service', InboundModule, {
    requests: [RatingTopic.ListWarehouses, CatalogTopic.ResolveVariants],
  }),
);
