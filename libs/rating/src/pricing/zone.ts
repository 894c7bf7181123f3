import type { CarrierService, Zone } from '../rate-cards/reference-data';
import { longestPrefixOf, normalizeCity, normalizePostalCode } from './address-match';

/** Where a shipment goes; postal code and city normalized (address-match.ts). */
export interface Destination {
  countryCode: string;
  postalCode: string;
  city: string;
  /** As the request wrote it, for messages: "JP 100-0001 Tokyo". */
  label: string;
}

export function destinationOf(
  countryCode: string,
  zipCode: string | null | undefined,
  city: string | null | undefined,
): Destination {
  return {
    countryCode,
    postalCode: normalizePostalCode(zipCode),
    city: normalizeCity(city),
    label: [countryCode, zipCode?.trim(), city?.trim()].filter(Boolean).join(' '),
  };
}

/**
 * The zone of a destination: the first matching rule of the destination country, rules being
 * held most specific first (postal prefix, longest first; then city; then the country alone; a
 * rule for the origin country before one for any origin).
 */
export function findZone(
  service: CarrierService,
  originCountry: string,
  destination: Destination,
): Zone | undefined {
  if (!service.domestic && originCountry === destination.countryCode) return undefined;
  for (const rule of service.rulesByCountry.get(destination.countryCode) ?? []) {
    if (rule.originCountry !== null && rule.originCountry !== originCountry) continue;
    if (rule.postalPrefix !== null && !destination.postalCode.startsWith(rule.postalPrefix))
      continue;
    if (rule.city !== null && rule.city !== destination.city) continue;
    return rule.zone;
  }
  return undefined;
}

/** Whether the destination is one of the service's remote areas. */
export function isRemoteArea(service: CarrierService, destination: Destination): boolean {
  const prefixes = service.remoteArea?.prefixesByCountry.get(destination.countryCode);
  return (
    prefixes !== undefined &&
    destination.postalCode !== '' &&
    longestPrefixOf(destination.postalCode, prefixes) !== undefined
  );
}
