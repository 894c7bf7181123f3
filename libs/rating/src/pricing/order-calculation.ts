import {
  CalcOriginAddressDto,
  CalculateOrderRequest,
  IncoTerm,
  OrderCostResultView,
  RatingErrorCode,
} from '@consign/contracts';
import type { CarrierService, ReferenceData, Warehouse } from '../rate-cards/reference-data';
import { isSupportedCurrency } from './currency';
import { importCharges, incoTermsFor, isCustomsFree } from './customs';
import { Parcel, orderParcel } from './parcel';
import { Outcome, RatingFailure, Refusal, refusal } from './rating-failure';
import { MAX_CENTS, amountOf } from './rounding';
import { ShipmentQuote, quoteShipment } from './shipping';
import { weightIn } from './units';
import { warehouseFees } from './warehouse-fees';
import { Destination, destinationOf } from './zone';

/** Element `code` of a candidate that could be rated. */
export const CANDIDATE_OK = 200;

/** Element `code` of a candidate that could not: 404 for an unknown warehouse, else 422. */
export function candidateCodeOf(code: RatingErrorCode): number {
  return code === RatingErrorCode.WarehouseNotFound ? 404 : 422;
}

/**
 * PUT /2025-07/cloud/calculate/order: one result per candidate origin warehouse, eligible
 * service (one shipping from the warehouse's country) and inco term (see incoTermsFor). A
 * candidate that cannot be served is an element with its own `code` and `error_code`, never a
 * failure of the call. Successes come first, cheapest first; then failures in request order.
 * The only whole-call failure: a declared value in a currency without a rate.
 */
export function calculateOrder(
  data: ReferenceData,
  request: CalculateOrderRequest,
): OrderCostResultView[] {
  const parcel = orderParcel(request);
  if (parcel.declared && !isSupportedCurrency(data.currencies, parcel.declared.currency))
    throw new RatingFailure(
      RatingErrorCode.UnsupportedCurrency,
      `Validation failed: currency ${parcel.declared.currency} has no conversion rate; supported: ${[...data.currencies.microRates.keys()].join(', ')}`,
    );
  const destination = destinationOf(
    request.dest_address.country_code,
    request.dest_address.zip_code,
    request.dest_address.city,
  );
  const context: Context = { data, request, parcel, destination, quotes: new Map() };

  const successes: OrderCostResultView[] = [];
  const failures: OrderCostResultView[] = [];
  const seen = new Set<string>();
  for (const origin of request.origin_addresses) {
    if (seen.has(origin.warehouse_code)) continue;
    seen.add(origin.warehouse_code);
    addCandidates(context, origin, successes, failures);
  }
  // Array.prototype.sort is stable: equal amounts keep request, card and inco-term order.
  successes.sort((a, b) => (a.amount as number) - (b.amount as number));
  return [...successes, ...failures];
}

interface Context {
  data: ReferenceData;
  request: CalculateOrderRequest;
  parcel: Parcel;
  destination: Destination;
  /**
   * Quotes by origin country and service: two warehouses in one country share them (keyed by the
   * service object, not a text made of codes: no string built and hashed per candidate).
   */
  quotes: Map<string, Map<CarrierService, Outcome<ShipmentQuote>>>;
}

/** The candidates of one origin warehouse, each added to the successes or the failures. */
function addCandidates(
  context: Context,
  origin: CalcOriginAddressDto,
  successes: OrderCostResultView[],
  failures: OrderCostResultView[],
): void {
  const { data, request } = context;
  const warehouse = data.warehouses.get(origin.warehouse_code);
  if (!warehouse) {
    failures.push(
      failed(
        context,
        origin.warehouse_code,
        null,
        refusal(
          RatingErrorCode.WarehouseNotFound,
          `Warehouse ${origin.warehouse_code} does not exist: GET /2025-07/cloud/warehouse lists the warehouses.`,
        ),
      ),
    );
    return;
  }
  if (origin.country_code !== warehouse.countryCode) {
    failures.push(
      failed(
        context,
        warehouse.code,
        null,
        refusal(
          RatingErrorCode.OriginMismatch,
          `Warehouse ${warehouse.code} is in ${warehouse.countryCode}, not ${origin.country_code}.`,
        ),
      ),
    );
    return;
  }
  const services = data.servicesByOrigin.get(warehouse.countryCode) ?? [];
  if (services.length === 0) {
    failures.push(
      failed(
        context,
        warehouse.code,
        null,
        refusal(
          RatingErrorCode.NoService,
          `No carrier service ships from ${warehouse.countryCode}, where warehouse ${warehouse.code} is.`,
        ),
      ),
    );
    return;
  }
  const customsFree = isCustomsFree(data, warehouse.countryCode, request.dest_address.country_code);
  const quotes = quotesFrom(context, warehouse.countryCode);
  for (const service of services) {
    let quote = quotes.get(service);
    if (!quote) {
      quote = quoteShipment(
        data,
        service,
        warehouse.countryCode,
        context.destination,
        context.parcel,
      );
      quotes.set(service, quote);
    }
    if (!quote.ok) {
      failures.push(failed(context, warehouse.code, service, quote.refusal));
      continue;
    }
    for (const term of incoTermsFor(service, customsFree)) {
      const result = priced(context, warehouse, quote.value, term, customsFree);
      (result.error_code === null ? successes : failures).push(result);
    }
  }
}

function quotesFrom(
  context: Context,
  originCountry: string,
): Map<CarrierService, Outcome<ShipmentQuote>> {
  let quotes = context.quotes.get(originCountry);
  if (!quotes) {
    quotes = new Map();
    context.quotes.set(originCountry, quotes);
  }
  return quotes;
}

function priced(
  context: Context,
  warehouse: Warehouse,
  quote: ShipmentQuote,
  term: IncoTerm,
  customsFree: boolean,
): OrderCostResultView {
  const { data, parcel } = context;
  const { service } = quote;
  const fees = warehouseFees(warehouse, parcel, service.currency, data.currencies);
  const taxes = importCharges(data, term, customsFree, quote, parcel);
  const giftCard = 0;
  const amount =
    quote.totalShipping +
    fees.fulfillment +
    fees.pickPack +
    fees.packaging +
    giftCard +
    taxes.duty +
    taxes.vat +
    taxes.ddpHandling;
  if (amount > MAX_CENTS)
    return failed(
      context,
      warehouse.code,
      service,
      refusal(
        RatingErrorCode.AmountOutOfRange,
        `The amount of ${service.name} for this order would exceed 9999999999.99.`,
      ),
    );
  // Fields in the order of the spec's cost-result table.
  return {
    code: CANDIDATE_OK,
    message: 'success',
    error_code: null,
    inco_term: term,
    fulfillment: amountOf(fees.fulfillment),
    packaging: amountOf(fees.packaging),
    pick_pack: amountOf(fees.pickPack),
    gift_card: amountOf(giftCard),
    shipping: amountOf(quote.shipping),
    total_shipping: amountOf(quote.totalShipping),
    total_tax: amountOf(taxes.duty + taxes.vat),
    fuel_surcharge: amountOf(quote.fuelSurcharge),
    remote_area_surcharge: amountOf(quote.remoteAreaSurcharge),
    service_name: service.name,
    service_code: service.code,
    service_zone: quote.zone.code,
    service_id: service.id,
    service_zone_id: quote.zone.id,
    platform: service.platform,
    amount: amountOf(amount),
    currency: service.currency,
    vat: amountOf(taxes.vat),
    duty: amountOf(taxes.duty),
    ddp_handling: amountOf(taxes.ddpHandling),
    tax_currency: service.currency,
    charge_weight_unit: service.chargeUnit,
    charge_weight: weightIn(quote.chargeable, service.chargeUnit),
    original_weight_unit: context.request.weight_unit,
    original_weight: context.request.weight,
    timeliness: service.timeliness,
    carrier: service.carrierCode,
    warehouse_code: warehouse.code,
  };
}

/** A candidate that cannot be served: what is known of it (warehouse, service), no figures. */
function failed(
  context: Context,
  warehouseCode: string,
  service: CarrierService | null,
  reason: Refusal,
): OrderCostResultView {
  return {
    code: candidateCodeOf(reason.code),
    message: reason.message,
    error_code: reason.code,
    inco_term: null,
    fulfillment: null,
    packaging: null,
    pick_pack: null,
    gift_card: null,
    shipping: null,
    total_shipping: null,
    total_tax: null,
    fuel_surcharge: null,
    remote_area_surcharge: null,
    service_name: service?.name ?? null,
    service_code: service?.code ?? null,
    service_zone: null,
    service_id: service?.id ?? null,
    service_zone_id: null,
    platform: service?.platform ?? null,
    amount: null,
    currency: service?.currency ?? null,
    vat: null,
    duty: null,
    ddp_handling: null,
    tax_currency: null,
    charge_weight_unit: null,
    charge_weight: null,
    original_weight_unit: context.request.weight_unit,
    original_weight: context.request.weight,
    timeliness: service?.timeliness ?? null,
    carrier: service?.carrierCode ?? null,
    warehouse_code: warehouseCode,
  };
}
