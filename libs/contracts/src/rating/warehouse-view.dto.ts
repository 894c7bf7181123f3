/** Street address of a warehouse. */
export class WarehouseAddressView {
  address1!: string;
  address2!: string | null;
  city!: string;
  province!: string | null;
  zip_code!: string;
  /** ISO 3166-1 alpha-2. */
  country_code!: string;
}

/** One packaging size of a warehouse: the smallest that holds the parcel is used. */
export class PackagingView {
  /** Size code, e.g. S, M, L, XL. */
  size!: string;
  name!: string;
  /** Heaviest parcel it takes, in kg; null: no limit. */
  max_weight_kg!: number | null;
  /** Inner length, width and height in cm, longest first; null: any size. */
  max_dimensions_cm!: number[] | null;
  /** Number(12,2), in the warehouse currency. */
  fee!: number;
}

/** Pick and pack: a fee per order plus one per unit beyond the first. */
export class PickPackFeeView {
  /** Number(12,2). */
  per_order!: number;
  /** Number(12,2). */
  per_extra_unit!: number;
}

/** What the warehouse bills for one order, in its currency. */
export class WarehouseFeesView {
  /** Number(12,2), per order. */
  fulfillment!: number;
  pick_pack!: PickPackFeeView;
  /** Smallest first. */
  packaging!: PackagingView[];
}

/** A warehouse orders, inbound orders and cost calculations may name (`warehouse_code`). */
export class WarehouseView {
  code!: string;
  name!: string;
  /** ISO 3166-1 alpha-2. */
  country_code!: string;
  address!: WarehouseAddressView;
  /** IANA time zone, e.g. America/New_York. */
  timezone!: string;
  /** ISO 4217: the currency of `fees`. */
  currency!: string;
  fees!: WarehouseFeesView;
}
