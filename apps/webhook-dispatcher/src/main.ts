import './tracing';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';
import { WebhookModule } from '@consign/webhook';

runBeforeExit(shutdownTracing);

// webhook-dispatcher consumes the services' events as its own consumer group and asks no
// service anything: the events carry the resources it delivers.
runMain('webhook-dispatcher', () => runServiceProcess('webhook-dispatcher', WebhookModule));
