import { serviceDatabase } from '@consign/platform';
import { ProductEntity } from './product.entity';
import { VariantEntity } from './variant.entity';
import { StockLevelEntity } from './stock-level.entity';
import { CreateCatalog1764000000200 } from './migrations/1764000000200-create-catalog';
import { CreateStockReservation1764000000210 } from './migrations/1764000000210-create-stock-reservation';

export const CATALOG_SCHEMA = 'catalog';

export const catalogDatabase = serviceDatabase({
  name: 'catalog',
  schema: CATALOG_SCHEMA,
  entities: [ProductEntity, VariantEntity, StockLevelEntity],
  migrations: [CreateCatalog1764000000200, CreateStockReservation1764000000210],
});
