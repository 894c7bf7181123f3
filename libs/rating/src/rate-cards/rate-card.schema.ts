import {
  COUNTRY_CODE_PATTERN,
  CURRENCY_CODE_PATTERN,
  IncoTerm,
  ORDER_COST_RESULT_LIMITS,
  RATING_LIMITS,
  RATING_WEIGHT_UNITS,
  RestrictedContent,
} from '@consign/contracts';
import type { RateCardKind } from './rate-card.types';

/**
 * JSON Schemas of the rate-card files (draft-07, checked with ajv). Besides the standard keywords:
 * `decimal: [precision, scale]` (at most `precision` digits, `scale` of them decimals, judged on
 * the number's text, like Number(12,2) in requests) and `timeZone: true` (an IANA time zone this
 * Node.js knows). Limits come from the contracts, so a card cannot hold a code or a name the cost
 * results could not carry.
 */

type Schema = Record<string, unknown>;

const object = (properties: Record<string, Schema>, optional: string[] = []): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});

const text = (maxLength: number, description?: string): Schema => ({
  type: 'string',
  minLength: 1,
  maxLength,
  ...(description ? { description } : {}),
});

const code = (maxLength: number): Schema => ({
  type: 'string',
  maxLength,
  pattern: '^[A-Z0-9][A-Z0-9._-]*$',
  description: 'capital letters, digits, ".", "_" and "-"',
});

const country: Schema = {
  type: 'string',
  pattern: COUNTRY_CODE_PATTERN.source,
  description: 'an ISO 3166-1 alpha-2 country code (two capital letters)',
};

const currency: Schema = {
  type: 'string',
  pattern: CURRENCY_CODE_PATTERN.source,
  description: 'an ISO 4217 currency code (three capital letters)',
};

/** A Number(12,2) amount, zero or more. */
const money: Schema = { type: 'number', minimum: 0, decimal: [12, 2] };

const percent: Schema = { type: 'number', minimum: 0, maximum: 100, decimal: [5, 2] };

/** A positive weight or length with at most 2 decimals. */
const measure: Schema = { type: 'number', exclusiveMinimum: 0, decimal: [12, 2] };

const id: Schema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

const postalPrefix: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: RATING_LIMITS.zip_code,
  pattern: '^[A-Z0-9]([A-Z0-9 -]*[A-Z0-9])?$',
  description: 'capital letters and digits (spaces and "-" inside), as postal codes are written',
};

const version: Schema = { type: 'integer', minimum: 1 };
const note: Schema = { type: 'string' };

const currencyRates = object(
  {
    version,
    as_of: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a yyyy-MM-dd date' },
    base: currency,
    note,
    rates: {
      type: 'object',
      minProperties: 1,
      propertyNames: currency,
      additionalProperties: { type: 'number', exclusiveMinimum: 0, decimal: [15, 6] },
    },
  },
  ['note'],
);

const destinations = object(
  {
    version,
    note,
    destinations: {
      type: 'array',
      minItems: 1,
      items: object(
        {
          country_code: country,
          name: text(60),
          currency,
          customs_union: { anyOf: [code(16), { type: 'null' }] },
          customs_valuation: { enum: ['CIF', 'FOB'] },
          vat_rate_percent: percent,
          duty_rate_percent: percent,
          duty_de_minimis: money,
          vat_de_minimis: money,
          ddp_handling_fee: money,
          note,
        },
        ['note'],
      ),
    },
  },
  ['note'],
);

const packaging = object(
  {
    size: code(8),
    name: text(64),
    max_weight_kg: measure,
    max_dimensions_cm: { type: 'array', minItems: 3, maxItems: 3, items: measure },
    fee: money,
  },
  ['max_weight_kg', 'max_dimensions_cm'],
);

const warehouses = object(
  {
    version,
    note,
    warehouses: {
      type: 'array',
      minItems: 1,
      items: object({
        code: code(RATING_LIMITS.warehouse_code),
        name: text(64),
        country_code: country,
        address: object(
          {
            address1: text(256),
            address2: text(256),
            city: text(RATING_LIMITS.city),
            province: text(60),
            zip_code: text(RATING_LIMITS.zip_code),
          },
          ['address2', 'province'],
        ),
        timezone: { type: 'string', timeZone: true },
        currency,
        fees: object({
          fulfillment: money,
          pick_pack: object({ per_order: money, per_extra_unit: money }),
          packaging: { type: 'array', minItems: 1, items: packaging },
        }),
      }),
    },
  },
  ['note'],
);

const zone = object({
  id,
  code: code(ORDER_COST_RESULT_LIMITS.service_zone),
  name: text(64),
  breaks: {
    type: 'array',
    minItems: 1,
    items: object({ up_to: measure, price: money }),
  },
  additional: { anyOf: [object({ per: measure, price: money }), { type: 'null' }] },
});

const zoneRule: Schema = {
  ...object(
    {
      country_code: country,
      postal_prefix: postalPrefix,
      city: text(RATING_LIMITS.city),
      origin_country_code: country,
      zone: code(ORDER_COST_RESULT_LIMITS.service_zone),
    },
    ['postal_prefix', 'city', 'origin_country_code'],
  ),
  not: { required: ['postal_prefix', 'city'] },
  description: 'a rule with a postal_prefix or a city, not both',
};

const carrierServices = object(
  {
    version,
    note,
    services: {
      type: 'array',
      minItems: 1,
      items: object({
        id,
        service_code: code(RATING_LIMITS.service_code),
        service_name: text(ORDER_COST_RESULT_LIMITS.service_name),
        carrier: object({
          code: code(ORDER_COST_RESULT_LIMITS.carrier),
          name: text(64),
        }),
        platform: text(ORDER_COST_RESULT_LIMITS.platform),
        origin_countries: { type: 'array', minItems: 1, uniqueItems: true, items: country },
        domestic: { type: 'boolean' },
        inco_terms: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: Object.values(IncoTerm) },
        },
        timeliness: text(ORDER_COST_RESULT_LIMITS.timeliness),
        currency,
        weight: object({
          unit: { enum: [...RATING_WEIGHT_UNITS] },
          increment: measure,
          max: measure,
        }),
        volumetric_divisor: {
          anyOf: [{ type: 'integer', minimum: 1000, maximum: 20000 }, { type: 'null' }],
        },
        fuel_surcharge_percent: percent,
        restricted_contents: {
          type: 'array',
          uniqueItems: true,
          items: { enum: Object.values(RestrictedContent) },
        },
        zones: { type: 'array', minItems: 1, items: zone },
        zone_rules: { type: 'array', minItems: 1, items: zoneRule },
        remote_area: {
          anyOf: [
            object({
              rate: money,
              minimum: money,
              postal_prefixes: {
                type: 'object',
                minProperties: 1,
                propertyNames: country,
                additionalProperties: {
                  type: 'array',
                  minItems: 1,
                  uniqueItems: true,
                  items: postalPrefix,
                },
              },
            }),
            { type: 'null' },
          ],
        },
      }),
    },
  },
  ['note'],
);

export const RATE_CARD_SCHEMAS: Readonly<Record<RateCardKind, Schema>> = {
  warehouses,
  'carrier-services': carrierServices,
  destinations,
  'currency-rates': currencyRates,
};
