import './tracing';
import { RatingTopic } from '@consign/contracts';
import { LabelTrackingModule } from '@consign/label-tracking';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

// label-tracking-service asks rating-service for the carrier services and a label's price.
runMain('label-tracking-service', () =>
  runServiceProcess('label-tracking-service', LabelTrackingModule, {
    requests: [RatingTopic.ListServices, RatingTopic.CalculateFreight],
  }),
);
