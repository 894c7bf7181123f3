import './tracing';
import { CatalogModule } from '@consign/catalog';
import { runBeforeExit, runMain, runServiceProcess } from '@consign/platform';
import { shutdownTracing } from '@consign/tracing';

runBeforeExit(shutdownTracing);

runMain('catalog-service', () => runServiceProcess('catalog-service', CatalogModule));
