import {
  CarrierServiceView,
  IncoTerm,
  LengthUnit,
  RatingWeightUnit,
  RestrictedContent,
  WarehouseView,
  WeightUnit,
} from '@consign/contracts';
import { normalizeCity } from '../pricing/address-match';
import { Cents, basisPointsOf, centsOf, scaled } from '../pricing/rounding';
import { Length, Mass, lengthOf, massOf } from '../pricing/units';
import type {
  CarrierServiceCardEntry,
  RateCardKind,
  RateCards,
  WarehouseCardEntry,
} from './rate-card.types';

/**
 * The rate cards compiled for pricing: amounts in cents, percentages in basis points, weights
 * and lengths exact (see units.ts), lookups indexed. Built once at start-up and held in memory:
 * a calculation reads no file and no database.
 */

export interface PackagingSize {
  size: string;
  maxMass: Mass | null;
  /** Longest first. */
  maxDimensions: Length[] | null;
  fee: Cents;
}

export interface Warehouse {
  code: string;
  name: string;
  countryCode: string;
  currency: string;
  fulfillment: Cents;
  pickPackPerOrder: Cents;
  pickPackPerExtraUnit: Cents;
  /** Smallest first; the last takes any parcel. */
  packaging: PackagingSize[];
}

export interface Zone {
  id: number;
  code: string;
  /** Ascending `upTo`. */
  breaks: { upTo: Mass; price: Cents }[];
  additional: { per: Mass; price: Cents } | null;
}

export interface ZoneRule {
  postalPrefix: string | null;
  /** Normalized (see address-match.ts). */
  city: string | null;
  originCountry: string | null;
  zone: Zone;
}

export interface RemoteArea {
  /** Per charge-weight unit. */
  rate: Cents;
  minimum: Cents;
  prefixesByCountry: ReadonlyMap<string, readonly string[]>;
}

export interface CarrierService {
  id: number;
  code: string;
  name: string;
  carrierCode: string;
  carrierName: string;
  platform: string;
  originCountries: ReadonlySet<string>;
  domestic: boolean;
  incoTerms: readonly IncoTerm[];
  timeliness: string;
  currency: string;
  chargeUnit: RatingWeightUnit;
  increment: Mass;
  maxMass: Mass;
  /** cm³ per kg; null: no volumetric weight. */
  volumetricDivisor: number | null;
  fuelSurcharge: number;
  restricted: ReadonlySet<RestrictedContent>;
  /** Destination country to its rules, most specific first (see zone.ts). */
  rulesByCountry: ReadonlyMap<string, readonly ZoneRule[]>;
  remoteArea: RemoteArea | null;
}

export interface Destination {
  countryCode: string;
  currency: string;
  customsUnion: string | null;
  /** Customs value includes the shipping charge (CIF) or not (FOB). */
  cif: boolean;
  /** Basis points. */
  vatRate: number;
  /** Basis points. */
  dutyRate: number;
  /** In the destination currency. */
  dutyDeMinimis: Cents;
  vatDeMinimis: Cents;
  ddpHandlingFee: Cents;
}

export interface CurrencyTable {
  base: string;
  /** Units per one `base`, times 10⁶. */
  microRates: ReadonlyMap<string, number>;
}

export interface ReferenceData {
  versions: Readonly<Record<RateCardKind, number>>;
  warehouses: ReadonlyMap<string, Warehouse>;
  /** By service code. */
  services: ReadonlyMap<string, CarrierService>;
  /** Origin country to the services shipping from it, in card order. */
  servicesByOrigin: ReadonlyMap<string, readonly CarrierService[]>;
  destinations: ReadonlyMap<string, Destination>;
  currencies: CurrencyTable;
  warehouseViews: readonly WarehouseView[];
  serviceViews: readonly CarrierServiceView[];
}

/** Compiles cards that passed the schema and the checks (checkRateCards). */
export function buildReferenceData(cards: RateCards): ReferenceData {
  const services = cards['carrier-services'].services.map(compileService);
  const servicesByOrigin = new Map<string, CarrierService[]>();
  for (const service of services) {
    for (const country of service.originCountries) {
      servicesByOrigin.set(country, [...(servicesByOrigin.get(country) ?? []), service]);
    }
  }
  return {
    versions: {
      warehouses: cards.warehouses.version,
      'carrier-services': cards['carrier-services'].version,
      destinations: cards.destinations.version,
      'currency-rates': cards['currency-rates'].version,
    },
    warehouses: new Map(cards.warehouses.warehouses.map((w) => [w.code, compileWarehouse(w)])),
    services: new Map(services.map((service) => [service.code, service])),
    servicesByOrigin,
    destinations: new Map(
      cards.destinations.destinations.map((d) => [
        d.country_code,
        {
          countryCode: d.country_code,
          currency: d.currency,
          customsUnion: d.customs_union,
          cif: d.customs_valuation === 'CIF',
          vatRate: basisPointsOf(d.vat_rate_percent),
          dutyRate: basisPointsOf(d.duty_rate_percent),
          dutyDeMinimis: centsOf(d.duty_de_minimis),
          vatDeMinimis: centsOf(d.vat_de_minimis),
          ddpHandlingFee: centsOf(d.ddp_handling_fee),
        },
      ]),
    ),
    currencies: {
      base: cards['currency-rates'].base,
      microRates: new Map(
        Object.entries(cards['currency-rates'].rates).map(([code, rate]) => [
          code,
          scaled(rate, 6),
        ]),
      ),
    },
    warehouseViews: cards.warehouses.warehouses.map(warehouseView),
    serviceViews: cards['carrier-services'].services.map(serviceView),
  };
}

function compileWarehouse(card: WarehouseCardEntry): Warehouse {
  return {
    code: card.code,
    name: card.name,
    countryCode: card.country_code,
    currency: card.currency,
    fulfillment: centsOf(card.fees.fulfillment),
    pickPackPerOrder: centsOf(card.fees.pick_pack.per_order),
    pickPackPerExtraUnit: centsOf(card.fees.pick_pack.per_extra_unit),
    packaging: card.fees.packaging.map((size) => ({
      size: size.size,
      maxMass: size.max_weight_kg === undefined ? null : massOf(size.max_weight_kg, WeightUnit.Kg),
      maxDimensions: size.max_dimensions_cm
        ? size.max_dimensions_cm.map((side) => lengthOf(side, LengthUnit.Cm)).sort(descending)
        : null,
      fee: centsOf(size.fee),
    })),
  };
}

function compileService(card: CarrierServiceCardEntry): CarrierService {
  const unit = card.weight.unit;
  const zones = new Map<string, Zone>(
    card.zones.map((zone) => [
      zone.code,
      {
        id: zone.id,
        code: zone.code,
        breaks: zone.breaks.map((b) => ({ upTo: massOf(b.up_to, unit), price: centsOf(b.price) })),
        additional: zone.additional && {
          per: massOf(zone.additional.per, unit),
          price: centsOf(zone.additional.price),
        },
      },
    ]),
  );
  const rulesByCountry = new Map<string, (ZoneRule & { order: number })[]>();
  card.zone_rules.forEach((rule, order) => {
    const compiled = {
      postalPrefix: rule.postal_prefix ?? null,
      city: rule.city === undefined ? null : normalizeCity(rule.city),
      originCountry: rule.origin_country_code ?? null,
      zone: zones.get(rule.zone) as Zone,
      order,
    };
    rulesByCountry.set(rule.country_code, [
      ...(rulesByCountry.get(rule.country_code) ?? []),
      compiled,
    ]);
  });
  for (const rules of rulesByCountry.values()) rules.sort(bySpecificity);
  return {
    id: card.id,
    code: card.service_code,
    name: card.service_name,
    carrierCode: card.carrier.code,
    carrierName: card.carrier.name,
    platform: card.platform,
    originCountries: new Set(card.origin_countries),
    domestic: card.domestic,
    incoTerms: card.inco_terms,
    timeliness: card.timeliness,
    currency: card.currency,
    chargeUnit: unit,
    increment: massOf(card.weight.increment, unit),
    maxMass: massOf(card.weight.max, unit),
    volumetricDivisor: card.volumetric_divisor,
    fuelSurcharge: basisPointsOf(card.fuel_surcharge_percent),
    restricted: new Set(card.restricted_contents),
    rulesByCountry,
    remoteArea: card.remote_area && {
      rate: centsOf(card.remote_area.rate),
      minimum: centsOf(card.remote_area.minimum),
      prefixesByCountry: new Map(Object.entries(card.remote_area.postal_prefixes)),
    },
  };
}

/**
 * Most specific first: a postal-prefix rule (longest prefix first), then a city rule, then the
 * country alone; among equals a rule for one origin country first; then card order.
 */
function bySpecificity(a: ZoneRule & { order: number }, b: ZoneRule & { order: number }): number {
  const rank = (rule: ZoneRule) => (rule.postalPrefix ? 2 : rule.city ? 1 : 0);
  return (
    rank(b) - rank(a) ||
    (b.postalPrefix?.length ?? 0) - (a.postalPrefix?.length ?? 0) ||
    Number(b.originCountry !== null) - Number(a.originCountry !== null) ||
    a.order - b.order
  );
}

function descending(a: bigint, b: bigint): number {
  return a > b ? -1 : a < b ? 1 : 0;
}

function warehouseView(card: WarehouseCardEntry): WarehouseView {
  return {
    code: card.code,
    name: card.name,
    country_code: card.country_code,
    address: {
      address1: card.address.address1,
      address2: card.address.address2 ?? null,
      city: card.address.city,
      province: card.address.province ?? null,
      zip_code: card.address.zip_code,
      country_code: card.country_code,
    },
    timezone: card.timezone,
    currency: card.currency,
    fees: {
      fulfillment: card.fees.fulfillment,
      pick_pack: { ...card.fees.pick_pack },
      packaging: card.fees.packaging.map((size) => ({
        size: size.size,
        name: size.name,
        max_weight_kg: size.max_weight_kg ?? null,
        max_dimensions_cm: size.max_dimensions_cm ? [...size.max_dimensions_cm] : null,
        fee: size.fee,
      })),
    },
  };
}

function serviceView(card: CarrierServiceCardEntry): CarrierServiceView {
  return {
    service_id: card.id,
    service_code: card.service_code,
    service_name: card.service_name,
    carrier: card.carrier.code,
    carrier_name: card.carrier.name,
    platform: card.platform,
    origin_countries: [...card.origin_countries],
    domestic: card.domestic,
    inco_terms: [...card.inco_terms],
    timeliness: card.timeliness,
    currency: card.currency,
    charge_weight_unit: card.weight.unit,
    weight_increment: card.weight.increment,
    max_weight: card.weight.max,
    volumetric_divisor: card.volumetric_divisor,
    fuel_surcharge_percent: card.fuel_surcharge_percent,
    restricted_contents: [...card.restricted_contents],
    zones: card.zones.map((zone) => ({
      service_zone_id: zone.id,
      code: zone.code,
      name: zone.name,
      breaks: zone.breaks.map((b) => ({ up_to: b.up_to, price: b.price })),
      additional: zone.additional && { ...zone.additional },
    })),
    zone_rules: card.zone_rules.map((rule) => ({
      country_code: rule.country_code,
      postal_prefix: rule.postal_prefix ?? null,
      city: rule.city ?? null,
      origin_country_code: rule.origin_country_code ?? null,
      zone: rule.zone,
    })),
    remote_area: card.remote_area && {
      rate: card.remote_area.rate,
      minimum: card.remote_area.minimum,
      postal_prefixes: Object.fromEntries(
        Object.entries(card.remote_area.postal_prefixes).map(([country, prefixes]) => [
          country,
          [...prefixes],
        ]),
      ),
    },
  };
}
