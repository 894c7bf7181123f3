import { IncoTerm, RatingWeightUnit, RestrictedContent } from '@consign/contracts';

/**
 * The rate-card files as they are written (libs/rating/rate-cards/*.v<N>.json), after schema
 * validation. Amounts are JSON numbers with at most 2 decimals, percentages too; weights are in
 * the unit the card names; lengths in cm.
 */

export interface CurrencyRatesCard {
  version: number;
  as_of: string;
  /** Every rate is units of that currency per one unit of `base`. */
  base: string;
  note?: string;
  rates: Record<string, number>;
}

export interface DestinationCardEntry {
  country_code: string;
  name: string;
  currency: string;
  customs_union: string | null;
  customs_valuation: 'CIF' | 'FOB';
  vat_rate_percent: number;
  duty_rate_percent: number;
  duty_de_minimis: number;
  vat_de_minimis: number;
  ddp_handling_fee: number;
  note?: string;
}

export interface DestinationsCard {
  version: number;
  note?: string;
  destinations: DestinationCardEntry[];
}

export interface PackagingCardEntry {
  size: string;
  name: string;
  max_weight_kg?: number;
  max_dimensions_cm?: [number, number, number];
  fee: number;
}

export interface WarehouseCardEntry {
  code: string;
  name: string;
  country_code: string;
  address: {
    address1: string;
    address2?: string;
    city: string;
    province?: string;
    zip_code: string;
  };
  timezone: string;
  currency: string;
  fees: {
    fulfillment: number;
    pick_pack: { per_order: number; per_extra_unit: number };
    packaging: PackagingCardEntry[];
  };
}

export interface WarehousesCard {
  version: number;
  note?: string;
  warehouses: WarehouseCardEntry[];
}

export interface ZoneCardEntry {
  id: number;
  code: string;
  name: string;
  breaks: { up_to: number; price: number }[];
  additional: { per: number; price: number } | null;
}

export interface ZoneRuleCardEntry {
  country_code: string;
  postal_prefix?: string;
  city?: string;
  origin_country_code?: string;
  zone: string;
}

export interface CarrierServiceCardEntry {
  id: number;
  service_code: string;
  service_name: string;
  carrier: { code: string; name: string };
  platform: string;
  origin_countries: string[];
  /** Whether it carries within one country (origin country = destination country). */
  domestic: boolean;
  inco_terms: IncoTerm[];
  timeliness: string;
  currency: string;
  weight: { unit: RatingWeightUnit; increment: number; max: number };
  volumetric_divisor: number | null;
  fuel_surcharge_percent: number;
  restricted_contents: RestrictedContent[];
  zones: ZoneCardEntry[];
  zone_rules: ZoneRuleCardEntry[];
  remote_area: { rate: number; minimum: number; postal_prefixes: Record<string, string[]> } | null;
}

export interface CarrierServicesCard {
  version: number;
  note?: string;
  services: CarrierServiceCardEntry[];
}

/** The four cards rating-service loads, by kind (also the file name stem). */
export interface RateCards {
  warehouses: WarehousesCard;
  'carrier-services': CarrierServicesCard;
  destinations: DestinationsCard;
  'currency-rates': CurrencyRatesCard;
}

export type RateCardKind = keyof RateCards;

export const RATE_CARD_KINDS: readonly RateCardKind[] = [
  'warehouses',
  'carrier-services',
  'destinations',
  'currency-rates',
];
