import './tracing';
import { CarrierSandboxModule } from '@consign/carrier-sandbox';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

/** The carrier sandbox as its own process (distributed mode): publishes carrier events on Kafka. */
runMain('carrier-sandbox', () => runServiceProcess('carrier-sandbox', CarrierSandboxModule));
