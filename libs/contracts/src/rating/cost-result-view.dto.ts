import { CustomsForm } from '../label/label-document';
import { IncoTerm } from './inco-term';

/** One candidate of an order calculation (endpoint 3 returns an array of these). */
export class OrderCostResultView {
  /** 200 when this candidate could be rated. */
  code!: number;
  /** `success`, or why this candidate cannot be served (its figures are then null). */
  message!: string;
  /** Custom error code; null on success. */
  error_code!: string | null;
  /** The term it is priced under; under DDP the sender pays `duty`, `vat` and `ddp_handling`. */
  inco_term!: IncoTerm | null;
  /** Number(12,2): the warehouse's fee per order. */
  fulfillment!: number | null;
  /** Number(12,2): the smallest packaging of the warehouse that holds the parcel. */
  packaging!: number | null;
  /** Number(12,2): the warehouse's pick and pack fee, per order plus per unit beyond the first. */
  pick_pack!: number | null;
  /** Number(12,2): always 0 (Consign prices no gift cards). */
  gift_card!: number | null;
  /** Number(12,2): the service's price for the chargeable weight in the zone. */
  shipping!: number | null;
  /** Number(12,2): `shipping` + `fuel_surcharge` + `remote_area_surcharge`. */
  total_shipping!: number | null;
  /** Number(12,2): `duty` + `vat`. */
  total_tax!: number | null;
  /** Number(12,2): the service's `fuel_surcharge_percent` of `shipping`. */
  fuel_surcharge!: number | null;
  /** Number(12,2): for a destination in one of the service's remote areas; else 0. */
  remote_area_surcharge!: number | null;
  service_name!: string | null;
  service_code!: string | null;
  service_zone!: string | null;
  service_id!: number | null;
  service_zone_id!: number | null;
  platform!: string | null;
  /**
   * Number(12,2): the whole price, `total_shipping` + `fulfillment` + `pick_pack` + `packaging` +
   * `gift_card` + `duty` + `vat` + `ddp_handling`.
   */
  amount!: number | null;
  /** ISO 4217: the service's currency, of every figure of the candidate. */
  currency!: string | null;
  /** Number(12,2): import VAT under DDP; 0 under DAP, without customs, or under the threshold. */
  vat!: number | null;
  /** Number(12,2): import duty under DDP; 0 under DAP, without customs, or under the threshold. */
  duty!: number | null;
  /** Number(12,2): the destination's DDP handling fee; 0 under DAP or without customs. */
  ddp_handling!: number | null;
  /** ISO 4217. */
  tax_currency!: string | null;
  /** Carrier charge weight unit. */
  charge_weight_unit!: string | null;
  /** Number(12,2). */
  charge_weight!: number | null;
  original_weight_unit!: string | null;
  /** Number(12,2). */
  original_weight!: number | null;
  /** Delivery time. */
  timeliness!: string | null;
  carrier!: string | null;
  /** The candidate origin warehouse. */
  warehouse_code!: string;
}

/** Result of a freight calculation (endpoint 4). */
export class FreightCostResultView {
  carrier_code!: string;
  /** The term it is priced under; under DDP the sender pays `duty`, `vat` and `ddp_handling`. */
  inco_term!: IncoTerm | null;
  /**
   * Number(12,2): the whole price, `shipping` + `fuel_surcharge` + `remote_area_surcharge` +
   * `duty` + `vat` + `ddp_handling`, in `currency`.
   */
  amount!: number;
  /** Number(12,2). */
  shipping!: number | null;
  /** Number(12,2). */
  fuel_surcharge!: number | null;
  /** Number(12,2). */
  remote_area_surcharge!: number | null;
  /** Number(12,2). */
  vat!: number | null;
  /** Number(12,2). */
  duty!: number | null;
  /** Number(12,2). */
  ddp_handling!: number | null;
  /** ISO 4217. */
  currency!: string;
  /**
   * Extension: the customs declaration the parcel needs — null within one country or customs
   * union; CN22 up to the UPU threshold of declared value (300 SDR, taken as USD 400), CN23 above.
   */
  customs_form!: CustomsForm | null;
  message!: string | null;
}
