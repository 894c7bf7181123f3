import { RatingTopic } from '@consign/contracts';
import { OrderModule } from '@consign/order';
import { runMain, runServiceProcess } from '@consign/platform';

// order-service asks rating-service for the warehouses and carrier services an order may name.
runMain('order-service', () =>
  runServiceProcess('order-service', OrderModule, { requests: Object.values(RatingTopic) }),
);
