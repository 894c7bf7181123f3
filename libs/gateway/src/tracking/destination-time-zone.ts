import { createRequire } from 'node:module';

// The package's types are published as an ES module only, though it ships CommonJS too: loaded
// through require with the one function used here typed by hand.
const { getCountry } = createRequire(__filename)('countries-and-timezones') as {
  getCountry(id: string): { timezones: string[] } | null;
};

/**
 * Countries spanning several time zones: the zone most of their population lives in. A page can
 * only guess a parcel's zone from its destination country (the record keeps no coordinates).
 */
const PRIMARY_ZONE: Record<string, string> = {
  US: 'America/New_York',
  CA: 'America/Toronto',
  MX: 'America/Mexico_City',
  BR: 'America/Sao_Paulo',
  AR: 'America/Argentina/Buenos_Aires',
  CL: 'America/Santiago',
  AU: 'Australia/Sydney',
  NZ: 'Pacific/Auckland',
  RU: 'Europe/Moscow',
  KZ: 'Asia/Almaty',
  ID: 'Asia/Jakarta',
  CN: 'Asia/Shanghai',
  DE: 'Europe/Berlin',
  ES: 'Europe/Madrid',
  PT: 'Europe/Lisbon',
  FR: 'Europe/Paris',
  GB: 'Europe/London',
  NL: 'Europe/Amsterdam',
  UA: 'Europe/Kyiv',
  CD: 'Africa/Kinshasa',
  MN: 'Asia/Ulaanbaatar',
  MY: 'Asia/Kuala_Lumpur',
  EC: 'America/Guayaquil',
};

/** The IANA zone to show a destination's local time in; UTC when the country is unknown. */
export function destinationTimeZone(countryCode: string | null | undefined): string {
  if (!countryCode) return 'UTC';
  const code = countryCode.toUpperCase();
  const zone = PRIMARY_ZONE[code] ?? getCountry(code)?.timezones[0];
  return zone && isKnownZone(zone) ? zone : 'UTC';
}

function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
