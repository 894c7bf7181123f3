import './tracing';
import { RatingModule } from '@consign/rating';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

runMain('rating-service', () => runServiceProcess('rating-service', RatingModule));
