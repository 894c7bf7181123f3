import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  validateContract,
} from '@consign/contracts';
import { ReferenceData, findRateCardsFolder, loadRateCards } from '@consign/rating';

/** Test helpers: the repository's sample rate cards, and validated calculation requests. */

let sample: ReferenceData | undefined;

export function sampleReferenceData(): ReferenceData {
  sample ??= loadRateCards(findRateCardsFolder());
  return sample;
}

/** A valid order calculation from WH-NJ-01 to Austin, 1.25 kg, no dimensions. */
export function orderRequest(overrides: Record<string, unknown> = {}): CalculateOrderRequest {
  return validated(CalculateOrderRequest, {
    dest_address: { country_code: 'US', city: 'Austin', zip_code: '73301' },
    origin_addresses: [{ warehouse_code: 'WH-NJ-01', country_code: 'US' }],
    weight: 1.25,
    weight_unit: 'kg',
    ...overrides,
  });
}

/** A valid freight calculation with DHL Express from China to Austin, 1.25 kg, DDP. */
export function freightRequest(overrides: Record<string, unknown> = {}): CalculateFreightRequest {
  return validated(CalculateFreightRequest, {
    origin_country_code: 'CN',
    dest_country_code: 'US',
    dest_city: 'Austin',
    dest_zip_code: '73301',
    weight: 1.25,
    weight_unit: 'kg',
    service_code: 'DHL-EXPRESS',
    inco_term: 'DDP',
    ...overrides,
  });
}

function validated<T extends object>(cls: new () => T, plain: Record<string, unknown>): T {
  const result = validateContract(cls, plain);
  if (!result.ok) throw new Error(`invalid test request: ${result.errors.join('; ')}`);
  return result.value;
}
