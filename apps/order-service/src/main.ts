import './tracing';
import { RatingTopic } from '@consign/contracts';
import { OrderModule } from '@consign/order';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

// order-service asks rating-service for the warehouses and carrier services an order may name.
runMain('order-service', () =>
  runServiceProcess('order-service', OrderModule, { requests: Object.values(RatingTopic) }),
);
