import { CustomsForm, IncoTerm } from '@consign/contracts';
import type { CarrierService, ReferenceData } from '../rate-cards/reference-data';
import { convert } from './currency';
import type { Parcel } from './parcel';
import { Cents, percentOf } from './rounding';
import type { ShipmentQuote } from './shipping';

export interface ImportCharges {
  duty: Cents;
  vat: Cents;
  ddpHandling: Cents;
}

const NONE: ImportCharges = { duty: 0, vat: 0, ddpHandling: 0 };

/** Whether the shipment crosses no customs border: one country, or one customs union (EU). */
export function isCustomsFree(data: ReferenceData, origin: string, destination: string): boolean {
  if (origin === destination) return true;
  const union = data.destinations.get(origin)?.customsUnion;
  return !!union && union === data.destinations.get(destination)?.customsUnion;
}

/**
 * The inco terms a shipment is priced under. Across a customs border: every term the service
 * offers. Without one both terms cost the same, so one result: DAP when offered.
 */
export function incoTermsFor(service: CarrierService, customsFree: boolean): readonly IncoTerm[] {
  if (!customsFree) return service.incoTerms;
  return service.incoTerms.includes(IncoTerm.DAP) ? ONLY_DAP : [service.incoTerms[0]];
}

const ONLY_DAP: readonly IncoTerm[] = [IncoTerm.DAP];

/**
 * What the sender pays on import. DAP: nothing (the receiver pays the destination's duty and VAT
 * on delivery). DDP across a customs border, in the service's currency:
 * - the declared value is converted to the destination currency to compare with the thresholds,
 *   and to the service currency to compute the taxes (each conversion rounded half up);
 * - customs value = declared value, plus the total shipping charge where the destination values
 *   imports CIF (EU, UK, AU, JP, CN), not where it values them FOB (US, CA);
 * - duty = customs value × duty rate, when the declared value is above the duty de minimis;
 * - VAT = (customs value + duty) × VAT rate, when the declared value is above the VAT de minimis;
 * - DDP handling: the destination's fee, converted, on every DDP shipment.
 */
export function importCharges(
  data: ReferenceData,
  term: IncoTerm,
  customsFree: boolean,
  quote: ShipmentQuote,
  parcel: Parcel,
): ImportCharges {
  if (term !== IncoTerm.DDP || customsFree) return NONE;
  const rules = quote.destination;
  const currency = quote.service.currency;
  const rates = data.currencies;
  const declared = parcel.declared;
  const valueAtDestination = declared
    ? convert(rates, declared.amount, declared.currency, rules.currency)
    : 0;
  const value = declared ? convert(rates, declared.amount, declared.currency, currency) : 0;
  const customsValue = value + (rules.cif ? quote.totalShipping : 0);
  const duty =
    valueAtDestination > rules.dutyDeMinimis ? percentOf(customsValue, rules.dutyRate) : 0;
  const vat =
    valueAtDestination > rules.vatDeMinimis ? percentOf(customsValue + duty, rules.vatRate) : 0;
  const ddpHandling = convert(rates, rules.ddpHandlingFee, rules.currency, currency);
  return { duty, vat, ddpHandling };
}

/**
 * The UPU threshold between a CN22 and a CN23: 300 SDR of declared value, taken as USD 400 (the
 * SDR is worth about USD 1.33; the rate cards carry no SDR rate), in cents.
 */
export const CN22_MAX_USD_CENTS = 40_000;

/**
 * The customs declaration a parcel needs: none within one country or customs union; else CN22
 * when its declared value (converted to USD, rounded half up) is at most CN22_MAX_USD_CENTS,
 * CN23 above (and without a declared value: CN22, nothing being declared).
 */
export function customsFormOf(
  data: ReferenceData,
  customsFree: boolean,
  declared: Parcel['declared'],
): CustomsForm | null {
  if (customsFree) return null;
  const usd = declared ? convert(data.currencies, declared.amount, declared.currency, 'USD') : 0;
  return usd <= CN22_MAX_USD_CENTS ? CustomsForm.CN22 : CustomsForm.CN23;
}
