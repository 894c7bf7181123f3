import { CatalogModule } from '@consign/catalog';
import { runMain, runServiceProcess } from '@consign/platform';

runMain('catalog-service', () => runServiceProcess('catalog-service', CatalogModule));
