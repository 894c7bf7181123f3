import { CustomsForm } from '../label/label-document';
import { IncoTerm } from './inco-term';

/** One candidate of an order calculation (endpoint 3 returns an array of these). */
export class OrderCostResultView {
  /** 200 when this candidate could be rated. */
  code!: number;
  message!: string;
  /** Custom error code; null on success. */
  error_code!: string | null;
  inco_term!: IncoTerm | null;
  /** Number(12,2). */
  fulfillment!: number | null;
  /** Number(12,2). */
  packaging!: number | null;
  /** Number(12,2). */
  pick_pack!: number | null;
  /** Number(12,2). */
  gift_card!: number | null;
  /** Number(12,2). */
  shipping!: number | null;
  /** Number(12,2). */
  total_shipping!: number | null;
  /** Number(12,2). */
  total_tax!: number | null;
  /** Number(12,2). */
  fuel_surcharge!: number | null;
  /** Number(12,2). */
  remote_area_surcharge!: number | null;
  service_name!: string | null;
  service_code!: string | null;
  service_zone!: string | null;
  service_id!: number | null;
  service_zone_id!: number | null;
  platform!: string | null;
  /** Number(12,2). */
  amount!: number | null;
  /** ISO 4217. */
  currency!: string | null;
  /** Number(12,2). */
  vat!: number | null;
  /** Number(12,2). */
  duty!: number | null;
  /** Number(12,2). */
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
  inco_term!: IncoTerm | null;
  /** Number(12,2). */
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
