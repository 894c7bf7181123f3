import './tracing';
import { LabelTopic } from '@consign/contracts';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';
import { WEBHOOK_PARTITIONS_AT_ONCE, WebhookModule } from '@consign/webhook';

runBeforeExit(shutdownTracing);

// webhook-dispatcher consumes the services' events as its own consumer group. Status changes
// carry their resource; for tracking updates it asks label-tracking for the tracking, for a void
// the label.
runMain('webhook-dispatcher', () =>
  runServiceProcess('webhook-dispatcher', WebhookModule, {
    requests: [LabelTopic.Get, LabelTopic.GetTracking, LabelTopic.GetOrderTracking],
    // Events of different partitions at the same time: they share inbox transactions.
    partitionsConsumedConcurrently: WEBHOOK_PARTITIONS_AT_ONCE,
  }),
);
