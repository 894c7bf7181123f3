import { normalizeCity } from '../pricing/address-match';
import { massOf } from '../pricing/units';
import type { RateCardKind, RateCards } from './rate-card.types';

export interface CardFinding {
  kind: RateCardKind;
  path: string;
  message: string;
}

/**
 * What a schema cannot say: codes unique, references resolvable (currencies, countries, zones),
 * weight breaks ascending, every weight up to a service's maximum priceable.
 */
export function checkRateCards(cards: RateCards): CardFinding[] {
  const findings: CardFinding[] = [];
  const found = (kind: RateCardKind, path: string, message: string) =>
    findings.push({ kind, path, message });

  const rates = cards['currency-rates'];
  const currencies = new Set(Object.keys(rates.rates));
  if (rates.rates[rates.base] !== 1)
    found('currency-rates', `rates.${rates.base}`, `must be 1 (${rates.base} is the base)`);
  const knownCurrency = (kind: RateCardKind, path: string, currency: string) => {
    if (!currencies.has(currency))
      found(kind, path, `${currency} has no rate in the currency-rates card`);
  };

  const countries = new Set<string>();
  cards.destinations.destinations.forEach((destination, i) => {
    const path = `destinations[${i}]`;
    if (countries.has(destination.country_code))
      found('destinations', `${path}.country_code`, `${destination.country_code} is listed twice`);
    countries.add(destination.country_code);
    knownCurrency('destinations', `${path}.currency`, destination.currency);
  });
  const knownCountry = (kind: RateCardKind, path: string, country: string) => {
    if (!countries.has(country))
      found(kind, path, `${country} is not a country of the destinations card`);
  };

  const warehouseCodes = new Set<string>();
  cards.warehouses.warehouses.forEach((warehouse, i) => {
    const path = `warehouses[${i}]`;
    if (warehouseCodes.has(warehouse.code))
      found('warehouses', `${path}.code`, `${warehouse.code} is used twice`);
    warehouseCodes.add(warehouse.code);
    knownCurrency('warehouses', `${path}.currency`, warehouse.currency);
    knownCountry('warehouses', `${path}.country_code`, warehouse.country_code);
    const sizes = warehouse.fees.packaging;
    const sizeCodes = new Set<string>();
    sizes.forEach((size, j) => {
      const sizePath = `${path}.fees.packaging[${j}]`;
      if (sizeCodes.has(size.size)) found('warehouses', `${sizePath}.size`, 'is used twice');
      sizeCodes.add(size.size);
      const limited = size.max_weight_kg !== undefined || size.max_dimensions_cm !== undefined;
      if (j === sizes.length - 1 && limited)
        found('warehouses', sizePath, 'is the last size: it must take any parcel (no limits)');
      if (j < sizes.length - 1 && !limited)
        found('warehouses', sizePath, 'takes any parcel: it must be the last size');
    });
  });

  const serviceIds = new Set<number>();
  const serviceCodes = new Set<string>();
  const zoneIds = new Set<number>();
  cards['carrier-services'].services.forEach((service, i) => {
    const path = `services[${i}]`;
    const kind = 'carrier-services';
    if (serviceIds.has(service.id)) found(kind, `${path}.id`, `${service.id} is used twice`);
    serviceIds.add(service.id);
    if (serviceCodes.has(service.service_code))
      found(kind, `${path}.service_code`, `${service.service_code} is used twice`);
    serviceCodes.add(service.service_code);
    knownCurrency(kind, `${path}.currency`, service.currency);
    service.origin_countries.forEach((country, j) =>
      knownCountry(kind, `${path}.origin_countries[${j}]`, country),
    );

    const unit = service.weight.unit;
    const maxMass = massOf(service.weight.max, unit);
    const zoneCodes = new Set<string>();
    service.zones.forEach((zone, j) => {
      const zonePath = `${path}.zones[${j}]`;
      if (zoneIds.has(zone.id)) found(kind, `${zonePath}.id`, `${zone.id} is used twice`);
      zoneIds.add(zone.id);
      if (zoneCodes.has(zone.code)) found(kind, `${zonePath}.code`, `${zone.code} is used twice`);
      zoneCodes.add(zone.code);
      zone.breaks.forEach((weightBreak, k) => {
        if (k > 0 && weightBreak.up_to <= zone.breaks[k - 1].up_to)
          found(kind, `${zonePath}.breaks[${k}].up_to`, 'must be above the previous break');
      });
      const last = zone.breaks[zone.breaks.length - 1];
      if (!zone.additional && massOf(last.up_to, unit) < maxMass)
        found(
          kind,
          `${zonePath}.additional`,
          `is null, so nothing above ${last.up_to} ${unit} can be priced, but weight.max is ${service.weight.max} ${unit}`,
        );
    });

    const usedZones = new Set<string>();
    const ruleKeys = new Set<string>();
    service.zone_rules.forEach((rule, j) => {
      const rulePath = `${path}.zone_rules[${j}]`;
      knownCountry(kind, `${rulePath}.country_code`, rule.country_code);
      if (!zoneCodes.has(rule.zone))
        found(kind, `${rulePath}.zone`, `${rule.zone} is not a zone of this service`);
      usedZones.add(rule.zone);
      if (rule.origin_country_code && !service.origin_countries.includes(rule.origin_country_code))
        found(
          kind,
          `${rulePath}.origin_country_code`,
          `${rule.origin_country_code} is not an origin country of this service`,
        );
      const key = [
        rule.country_code,
        rule.postal_prefix ?? '',
        normalizeCity(rule.city),
        rule.origin_country_code ?? '',
      ].join('|');
      if (ruleKeys.has(key))
        found(kind, rulePath, 'matches exactly what an earlier rule matches (which zone wins?)');
      ruleKeys.add(key);
    });
    service.zones.forEach((zone, j) => {
      if (!usedZones.has(zone.code))
        found(kind, `${path}.zones[${j}].code`, `${zone.code} is used by no zone rule`);
    });

    Object.keys(service.remote_area?.postal_prefixes ?? {}).forEach((country) =>
      knownCountry(kind, `${path}.remote_area.postal_prefixes.${country}`, country),
    );
  });

  return findings;
}
