import { CarrierSandboxModule } from '@consign/carrier-sandbox';
import { runMain, runServiceProcess } from '@consign/platform';

/** The carrier sandbox as its own process (distributed mode): publishes carrier events on Kafka. */
runMain('carrier-sandbox', () => runServiceProcess('carrier-sandbox', CarrierSandboxModule));
