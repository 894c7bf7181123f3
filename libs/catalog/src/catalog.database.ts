import { serviceDatabase } from '@consign/messaging';
import { CreateCatalog1764000000200 } from './migrations/1764000000200-create-catalog';
import { CreateStockReservation1764000000210 } from './migrations/1764000000210-create-stock-reservation';

export const CATALOG_SCHEMA = 'catalog';

/**
 * catalog-service's schema: products, variants, stock levels and reservations (read and written
 * with SQL, see ProductRepository, StockRepository and StockReservationRepository).
 */
export const catalogDatabase = serviceDatabase({
  name: 'catalog',
  schema: CATALOG_SCHEMA,
  entities: [],
  migrations: [CreateCatalog1764000000200, CreateStockReservation1764000000210],
});
