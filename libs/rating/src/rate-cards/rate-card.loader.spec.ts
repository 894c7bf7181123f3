import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RateCardError } from './rate-card.error';
import {
  RateCardSources,
  findRateCardsFolder,
  loadRateCards,
  parseRateCards,
} from './rate-card.loader';
import { RATE_CARD_KINDS, RateCardKind } from './rate-card.types';

const folder = findRateCardsFolder();

/** The sample cards as parsed JSON, fresh for each test to break. */
function sampleCards(): Record<RateCardKind, Record<string, unknown>> {
  return Object.fromEntries(
    RATE_CARD_KINDS.map((kind) => [
      kind,
      JSON.parse(readFileSync(join(folder, `${kind}.v1.json`), 'utf8')),
    ]),
  ) as Record<RateCardKind, Record<string, unknown>>;
}

function sources(cards: Record<RateCardKind, unknown>): RateCardSources {
  return Object.fromEntries(
    RATE_CARD_KINDS.map((kind) => [
      kind,
      { file: `${kind}.v1.json`, text: JSON.stringify(cards[kind]), version: 1 },
    ]),
  ) as RateCardSources;
}

/** Sets (or, with undefined, deletes) the value at a path like `warehouses[1].fees.fee`. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  const last = keys.pop() as string;
  const parent = keys.reduce<Record<string, unknown>>(
    (node, key) => node[key] as Record<string, unknown>,
    target,
  );
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}

type Change = [RateCardKind, string, unknown];

/** The problems reported for the sample cards after the changes. */
function problemsAfter(...changes: Change[]): string[] {
  const cards = sampleCards();
  for (const [kind, path, value] of changes) setPath(cards[kind], path, value);
  try {
    parseRateCards(sources(cards));
  } catch (error) {
    if (error instanceof RateCardError)
      return error.problems.map((p) => `${p.file}: ${p.path} ${p.message}`.replace(':  ', ': '));
    throw error;
  }
  throw new Error('expected the cards to be refused');
}

describe('the sample rate cards', () => {
  const data = loadRateCards(folder);

  it('hold at least 3 carriers, 4 warehouses in 3 countries and 10 destinations', () => {
    expect(new Set(data.serviceViews.map((s) => s.carrier)).size).toBeGreaterThanOrEqual(3);
    expect(data.warehouseViews.length).toBeGreaterThanOrEqual(4);
    expect(new Set(data.warehouseViews.map((w) => w.country_code)).size).toBeGreaterThanOrEqual(3);
    expect(data.destinations.size).toBeGreaterThanOrEqual(10);
  });

  it('offer every warehouse at least one service', () => {
    for (const warehouse of data.warehouses.values())
      expect(data.servicesByOrigin.get(warehouse.countryCode)?.length).toBeGreaterThan(0);
  });

  it('are version 1 of each card', () => {
    expect(data.versions).toEqual({
      warehouses: 1,
      'carrier-services': 1,
      destinations: 1,
      'currency-rates': 1,
    });
  });
});

describe('parseRateCards refuses a bad card, naming the file and the field', () => {
  it.each<[string, Change, string[]]>([
    [
      'a missing field',
      ['warehouses', 'warehouses[1].fees.fulfillment', undefined],
      ['warehouses.v1.json: warehouses[1].fees.fulfillment is required'],
    ],
    [
      'an amount with 3 decimals',
      ['carrier-services', 'services[0].zones[2].breaks[4].price', 19.205],
      [
        'carrier-services.v1.json: services[0].zones[2].breaks[4].price must be a number with at most 12 digits, 2 of them decimals',
      ],
    ],
    [
      'a field of the wrong type',
      ['destinations', 'destinations[3].vat_rate_percent', '19'],
      ['destinations.v1.json: destinations[3].vat_rate_percent must be a number'],
    ],
    [
      'an unknown field',
      ['warehouses', 'warehouses[0].fees.gift_wrap', 1],
      ['warehouses.v1.json: warehouses[0].fees.gift_wrap is not a field of this card'],
    ],
    [
      'a bad country code',
      ['warehouses', 'warehouses[2].country_code', 'Germany'],
      [
        'warehouses.v1.json: warehouses[2].country_code must be an ISO 3166-1 alpha-2 country code (two capital letters)',
      ],
    ],
    [
      'an unknown time zone',
      ['warehouses', 'warehouses[0].timezone', 'America/Newark'],
      ['warehouses.v1.json: warehouses[0].timezone must be an IANA time zone, e.g. Europe/Berlin'],
    ],
    [
      'a value outside an enumeration',
      ['carrier-services', 'services[3].inco_terms', ['DAP', 'EXW']],
      ['carrier-services.v1.json: services[3].inco_terms[1] must be one of: DAP, DDP'],
    ],
    [
      'a bad nullable object',
      ['carrier-services', 'services[0].remote_area.minimum', -1],
      ['carrier-services.v1.json: services[0].remote_area.minimum must be >= 0'],
    ],
    [
      'a bad currency key',
      ['currency-rates', 'rates.eur', 0.92],
      [
        'currency-rates.v1.json: rates.eur is not allowed as a key: a key must be an ISO 4217 currency code (three capital letters)',
      ],
    ],
    [
      'a zone rule with both a postal prefix and a city',
      ['carrier-services', 'services[4].zone_rules[2].city', 'Helgoland'],
      [
        'carrier-services.v1.json: services[4].zone_rules[2] must be a rule with a postal_prefix or a city, not both',
      ],
    ],
    [
      'a zone code too long for the cost result',
      ['carrier-services', 'services[0].zones[0].code', 'US-EAST-COAST'],
      ['carrier-services.v1.json: services[0].zones[0].code must NOT have more than 8 characters'],
    ],
    [
      'a version the file name contradicts',
      ['destinations', 'version', 2],
      ['destinations.v1.json: version must be 1, as the file name says'],
    ],
  ])('%s', (_title, change, expected) => {
    expect(problemsAfter(change)).toEqual(expected);
  });

  it.each<[string, Change, string]>([
    [
      'a warehouse code used twice',
      ['warehouses', 'warehouses[1].code', 'WH-NJ-01'],
      'warehouses.v1.json: warehouses[1].code WH-NJ-01 is used twice',
    ],
    [
      'a currency without a rate',
      ['warehouses', 'warehouses[3].currency', 'CHF'],
      'warehouses.v1.json: warehouses[3].currency CHF has no rate in the currency-rates card',
    ],
    [
      'a country no destination describes',
      ['carrier-services', 'services[2].zone_rules[0].country_code', 'BR'],
      'carrier-services.v1.json: services[2].zone_rules[0].country_code BR is not a country of the destinations card',
    ],
    [
      'a rule naming a zone that does not exist',
      ['carrier-services', 'services[0].zone_rules[1].zone', 'US-X'],
      'carrier-services.v1.json: services[0].zone_rules[1].zone US-X is not a zone of this service',
    ],
    [
      'weight breaks out of order',
      ['carrier-services', 'services[1].zones[0].breaks[3].up_to', 2],
      'carrier-services.v1.json: services[1].zones[0].breaks[3].up_to must be above the previous break',
    ],
    [
      'weights up to the maximum that cannot be priced',
      ['carrier-services', 'services[1].weight.max', 80],
      'carrier-services.v1.json: services[1].zones[0].additional is null, so nothing above 70 lb can be priced, but weight.max is 80 lb',
    ],
    [
      'a last packaging size with limits',
      ['warehouses', 'warehouses[0].fees.packaging[3].max_weight_kg', 30],
      'warehouses.v1.json: warehouses[0].fees.packaging[3] is the last size: it must take any parcel (no limits)',
    ],
    [
      'a base currency not worth 1',
      ['currency-rates', 'rates.USD', 1.1],
      'currency-rates.v1.json: rates.USD must be 1 (USD is the base)',
    ],
  ])('%s', (_title, change, expected) => {
    expect(problemsAfter(change)).toContain(expected);
  });

  it('reports text that is not JSON', () => {
    const all = sources(sampleCards());
    all.warehouses.text = '{"version": 1,';
    expect(() => parseRateCards(all)).toThrow(/warehouses\.v1\.json: is not valid JSON/);
  });

  it('reports every problem at once, in one error', () => {
    const problems = problemsAfter(
      ['warehouses', 'warehouses[0].name', undefined],
      ['destinations', 'destinations[0].currency', 'usd'],
    );
    expect(problems).toHaveLength(2);
  });
});

describe('loadRateCards', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'consign-rate-cards-'));
    for (const name of readdirSync(folder))
      writeFileSync(join(dir, name), readFileSync(join(folder, name)));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the newest version of each card', () => {
    const v2 = JSON.parse(readFileSync(join(folder, 'currency-rates.v1.json'), 'utf8'));
    v2.version = 2;
    v2.rates.EUR = 0.95;
    writeFileSync(join(dir, 'currency-rates.v2.json'), JSON.stringify(v2));
    const data = loadRateCards(dir);
    expect(data.versions['currency-rates']).toBe(2);
    expect(data.currencies.microRates.get('EUR')).toBe(950_000);
  });

  it('names the file of a bad card', () => {
    const bad = JSON.parse(readFileSync(join(folder, 'warehouses.v1.json'), 'utf8'));
    bad.warehouses[0].code = '';
    writeFileSync(join(dir, 'warehouses.v1.json'), JSON.stringify(bad));
    expect(() => loadRateCards(dir)).toThrow(
      `${join(dir, 'warehouses.v1.json')}: warehouses[0].code must be capital letters, digits, ".", "_" and "-"`,
    );
  });

  it('names a missing card', () => {
    rmSync(join(dir, 'destinations.v1.json'));
    expect(() => loadRateCards(dir)).toThrow(/has no destinations\.v<N>\.json/);
  });

  it('names a missing folder', () => {
    expect(() => loadRateCards(join(dir, 'nowhere'))).toThrow(/nowhere: does not exist/);
  });
});
