import {
  CalculateFreightRequest,
  FreightCostResultView,
  IncoTerm,
  RatingErrorCode,
} from '@consign/contracts';
import type { CarrierService, ReferenceData } from '../rate-cards/reference-data';
import { importCharges, isCustomsFree } from './customs';
import { freightParcel } from './parcel';
import { RatingFailure } from './rating-failure';
import { MAX_CENTS, amountOf } from './rounding';
import { quoteShipment } from './shipping';
import { destinationOf } from './zone';

/**
 * PUT /2025-07/cloud/calculate/freight: the order engine for one service between two addresses,
 * without warehouse fees and without a declared value (so DDP collects no duty or VAT, only the
 * DDP handling fee). Refusals are whole-call failures (RatingFailure).
 */
export function calculateFreight(
  data: ReferenceData,
  request: CalculateFreightRequest,
): FreightCostResultView {
  const service = data.services.get(request.service_code);
  if (!service)
    throw new RatingFailure(
      RatingErrorCode.ServiceNotFound,
      `Validation failed: service_code ${request.service_code} is not a carrier service: GET /2025-07/cloud/service lists them.`,
    );
  const term = incoTermOf(service, request.inco_term);
  const parcel = freightParcel(request);
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
  const amount = quote.value.totalShipping + taxes.duty + taxes.vat + taxes.ddpHandling;
  if (amount > MAX_CENTS)
    throw new RatingFailure(
      RatingErrorCode.AmountOutOfRange,
      `The amount of ${service.name} for this parcel would exceed 9999999999.99.`,
    );
  return {
    carrier_code: service.carrierCode,
    inco_term: term,
    amount: amountOf(amount),
    shipping: amountOf(quote.value.shipping),
    fuel_surcharge: amountOf(quote.value.fuelSurcharge),
    remote_area_surcharge: amountOf(quote.value.remoteAreaSurcharge),
    vat: amountOf(taxes.vat),
    duty: amountOf(taxes.duty),
    ddp_handling: amountOf(taxes.ddpHandling),
    currency: service.currency,
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
