import type { CurrencyTable, PackagingSize, Warehouse } from '../rate-cards/reference-data';
import { convert } from './currency';
import type { Parcel } from './parcel';
import { Cents } from './rounding';

/** What the warehouse bills for an order, in the currency of the service's price. */
export interface WarehouseFees {
  fulfillment: Cents;
  pickPack: Cents;
  packaging: Cents;
  /** The packaging size used. */
  size: string;
}

/**
 * Fulfilment per order; pick & pack per order plus per unit beyond the first; packaging of the
 * smallest size that holds the parcel. Each fee is converted on its own (rounded half up) when
 * the service is priced in another currency than the warehouse's.
 */
export function warehouseFees(
  warehouse: Warehouse,
  parcel: Parcel,
  currency: string,
  rates: CurrencyTable,
): WarehouseFees {
  const size = packagingFor(warehouse, parcel);
  const pickPack =
    warehouse.pickPackPerOrder + warehouse.pickPackPerExtraUnit * Math.max(0, parcel.units - 1);
  const inCurrency = (amount: Cents) => convert(rates, amount, warehouse.currency, currency);
  return {
    fulfillment: inCurrency(warehouse.fulfillment),
    pickPack: inCurrency(pickPack),
    packaging: inCurrency(size.fee),
    size: size.size,
  };
}

/**
 * The first size whose weight limit and inner dimensions hold the parcel (longest side against
 * longest side, and so on). Without dimensions only the weight decides. The last size holds
 * anything (the loader checks it).
 */
export function packagingFor(warehouse: Warehouse, parcel: Parcel): PackagingSize {
  const sizes = warehouse.packaging;
  return sizes.find((size) => holds(size, parcel)) ?? sizes[sizes.length - 1];
}

function holds(size: PackagingSize, parcel: Parcel): boolean {
  if (size.maxMass !== null && parcel.actual > size.maxMass) return false;
  if (size.maxDimensions === null || parcel.dimensions === null) return true;
  const limits = size.maxDimensions;
  return parcel.dimensions.every((side, i) => side <= limits[i]);
}
