import {
  CalculateFreightRequest,
  FreightCostResultView,
  IncoTerm,
  RatingErrorCode,
} from '@consign/contracts';
import type { CarrierService, ReferenceData } from '../rate-cards/reference-data';
import { convert, isSupportedCurrency } from './currency';
import { customsFormOf, importCharges, isCustomsFree } from './customs';
import { freightParcel } from './parcel';
import { RatingFailure } from './rating-failure';
import { Cents, MAX_CENTS, amountOf } from './rounding';
import { quoteShipment } from './shipping';
import { destinationOf } from './zone';

/**
 * PUT /2025-07/cloud/calculate/freight: the order engine for one service between two addresses,
 * without warehouse fees. With a declared value, DDP across a customs border collects duty and
 * VAT exactly as calculate/order does; without one, only the DDP handling fee. Labels are priced
 * here too, in their own currency (`priceCurrency`): each line converted, rounded half up to the
 * cent, and the amount the sum of the converted lines. Refusals are whole-call failures.
 */
export function calculateFreight(
  data: ReferenceData,
  request: CalculateFreightRequest,
  priceCurrency?: string,
): FreightCostResultView {
  const service = data.services.get(request.service_code);
  if (!service)
    throw new RatingFailure(
      RatingErrorCode.ServiceNotFound,
      `Validation failed: service_code ${request.service_code} is not a carrier service: GET /2025-07/cloud/service lists them.`,
    );
  const term = incoTermOf(service, request.inco_term);
  const parcel = freightParcel(request);
  for (const currency of [parcel.declared?.currency, priceCurrency])
    if (currency !== undefined && !isSupportedCurrency(data.currencies, currency))
      throw new RatingFailure(
        RatingErrorCode.UnsupportedCurrency,
        `Validation failed: currency ${currency} has no conversion rate; supported: ${[...data.currencies.microRates.keys()].join(', ')}`,
      );
  const quote = quoteShipment(
    data,
    service,
    request.origin_country_code,
    destinationOf(request.dest_country_code, request.dest_zip_code, request.dest_city),
    parcel,
  );
  if (!quote.ok) throw new RatingFailure(quote.refusal.code, quote.refusal.message);
  const customsFree = isCustomsFree(data, request.origin_country_code, request.dest_country_code);
  const taxes = importCharges(data, term, customsFree, quote.value, parcel);
  const currency = priceCurrency ?? service.currency;
  const line = (cents: Cents) => convert(data.currencies, cents, service.currency, currency);
  const lines = {
    shipping: line(quote.value.shipping),
    fuel: line(quote.value.fuelSurcharge),
    remote: line(quote.value.remoteAreaSurcharge),
    vat: line(taxes.vat),
    duty: line(taxes.duty),
    ddp: line(taxes.ddpHandling),
  };
  const amount = lines.shipping + lines.fuel + lines.remote + lines.duty + lines.vat + lines.ddp;
  if (amount > MAX_CENTS)
    throw new RatingFailure(
      RatingErrorCode.AmountOutOfRange,
      `The amount of ${service.name} for this parcel would exceed 9999999999.99.`,
    );
  return {
    carrier_code: service.carrierCode,
    inco_term: term,
    amount: amountOf(amount),
    shipping: amountOf(lines.shipping),
    fuel_surcharge: amountOf(lines.fuel),
    remote_area_surcharge: amountOf(lines.remote),
    vat: amountOf(lines.vat),
    duty: amountOf(lines.duty),
    ddp_handling: amountOf(lines.ddp),
    currency,
    customs_form: customsFormOf(data, customsFree, parcel.declared),
    message: 'success',
  };
}

/**
 * The inco term of a freight calculation: the requested one, which the service must offer; when
 * none is requested, the service's only one. A service offering DAP and DDP needs it named.
 */
export function incoTermOf(service: CarrierService, requested: IncoTerm | undefined): IncoTerm {
  if (requested) {
    if (!service.incoTerms.includes(requested))
      throw new RatingFailure(
        RatingErrorCode.IncoTermNotSupported,
        `Validation failed: inco_term ${requested} is not offered by service ${service.code}, which offers ${service.incoTerms.join(', ')}`,
      );
    return requested;
  }
  if (service.incoTerms.length > 1)
    throw new RatingFailure(
      RatingErrorCode.IncoTermRequired,
      `Validation failed: inco_term is required: service ${service.code} offers ${service.incoTerms.join(' and ')}`,
    );
  return service.incoTerms[0];
}
