import {
  CalculateFreightRequest,
  CarrierServiceView,
  CreateLabelRequest,
  IncoTerm,
  LengthUnit,
  PackageAttributesDto,
  RATING_LIMITS,
  RatingWeightUnit,
  RestrictedContent,
  WeightUnit,
} from '@consign/contracts';

/** Why a label's service cannot take it: the code, the message naming the field. */
export interface LabelRefusal {
  kind: 'invalid_service' | 'restricted_contents';
  message: string;
}

/** The package attributes that declare a content a service may refuse. */
const RESTRICTED_ATTRIBUTES: [keyof PackageAttributesDto, RestrictedContent][] = [
  ['contains_alcohol', RestrictedContent.Alcohol],
  ['contains_battery', RestrictedContent.Battery],
  ['contains_liquid', RestrictedContent.Liquid],
  ['contains_dangerous_goods', RestrictedContent.DangerousGoods],
];

/**
 * What is wrong with a label for its service, or undefined: the service must be a known carrier
 * service offering the label's inco term, and carry what the package declares. Prohibited items
 * no service carries.
 */
export function labelRefusal(
  request: CreateLabelRequest,
  services: readonly CarrierServiceView[],
): LabelRefusal | undefined {
  const code = request.service.service_code;
  const service = services.find((s) => s.service_code === code);
  if (!service)
    return {
      kind: 'invalid_service',
      message: `Validation failed: service.service_code ${code} is not a carrier service (GET /2025-07/cloud/service lists them: ${services.map((s) => s.service_code).join(', ')})`,
    };
  const term = request.service.inco_term;
  if (term !== undefined && !(service.inco_terms as string[]).includes(term))
    return {
      kind: 'invalid_service',
      message: `Validation failed: service.inco_term ${term} is not offered by ${code}, which offers ${service.inco_terms.join(', ')}`,
    };
  const attributes = request.package_attributes ?? {};
  const refused = RESTRICTED_ATTRIBUTES.filter(
    ([attribute, content]) =>
      attributes[attribute] === true && service.restricted_contents.includes(content),
  ).map(
    ([attribute, content]) =>
      `package_attributes.${attribute}: ${code} does not carry ${content.replace('_', ' ')}`,
  );
  if (attributes.contains_prohibited_items === true)
    refused.push(
      'package_attributes.contains_prohibited_items: no carrier service carries prohibited items',
    );
  if (refused.length) return { kind: 'restricted_contents', message: refused.join('; ') };
  return undefined;
}

/** kg and lb stay; g is priced in kg, oz in lb (the units rating-service takes). */
const RATING_UNIT: Record<WeightUnit, { unit: RatingWeightUnit; per: number }> = {
  [WeightUnit.Kg]: { unit: WeightUnit.Kg, per: 1 },
  [WeightUnit.Lb]: { unit: WeightUnit.Lb, per: 1 },
  [WeightUnit.G]: { unit: WeightUnit.Kg, per: 1000 },
  [WeightUnit.Oz]: { unit: WeightUnit.Lb, per: 16 },
};

/** Thousandths of a Number(12,3) measure, exactly. */
const thousandths = (value: number) => Math.round(value * 1000);
/** Thousandths up to the next hundredth, as Number(12,2) (never 0: the smallest is 0.01). */
const upToHundredths = (thousandthsValue: number, per = 1) =>
  Math.max(1, Math.ceil(thousandthsValue / (10 * per))) / 100;

/**
 * The parcel's weight for pricing: the declared package weight, or the items' weights times
 * their quantities; in kg or lb, rounded up to Number(12,2) (never priced lighter than it is).
 */
export function pricingWeight(request: CreateLabelRequest): {
  weight: number;
  unit: RatingWeightUnit;
} {
  const total =
    request.package_attributes?.weight != null
      ? thousandths(request.package_attributes.weight)
      : request.items.reduce((sum, item) => sum + thousandths(item.weight) * item.quantity, 0);
  const { unit, per } = RATING_UNIT[request.weight_unit];
  return { weight: upToHundredths(total, per), unit };
}

/** Cents of a Number(12,2) amount, exactly (validated to at most 2 decimals). */
const cents = (amount: number) => Math.round(amount * 100);

/**
 * The parcel's declared value for customs, in the label's currency: each item's
 * `declared_unit_value` (its `unit_price` when none is declared) times its quantity, summed in
 * cents. The same figure calculate/order and calculate/freight take as `declared_value`.
 */
export function declaredValue(request: CreateLabelRequest): number {
  const total = request.items.reduce(
    (sum, item) => sum + cents(item.declared_unit_value ?? item.unit_price) * item.quantity,
    0,
  );
  return total / 100;
}

/**
 * rating-service's freight request for a label and its service: the same parcel calculate/order
 * would price (weight, dimensions, declared value in the label's currency), so that DDP collects
 * the same duty, VAT and DDP fee.
 */
export function freightRequestOf(
  request: CreateLabelRequest,
  service: CarrierServiceView,
): CalculateFreightRequest {
  const to = request.shipping_address;
  const from = request.shipper_address;
  // The gateway drops a null zip_code (nullAsAbsent), but the command's own validation lets one
  // through (@IsOptional), as from a producer other than the gateway: priced as absent.
  const fits = (value: string | null | undefined, max: number) =>
    value != null && value.length <= max ? value : undefined;
  const { weight, unit } = pricingWeight(request);
  const { length, width, height, length_unit: uom } = request;
  const term =
    (request.service.inco_term as IncoTerm | undefined) ??
    (service.inco_terms.includes(IncoTerm.DAP) ? IncoTerm.DAP : service.inco_terms[0]);
  const freight: CalculateFreightRequest = {
    dest_country_code: to.country_code,
    dest_city: fits(to.city, RATING_LIMITS.city),
    dest_zip_code: fits(to.zip_code, RATING_LIMITS.zip_code),
    origin_country_code: from.country_code,
    origin_city: fits(from.city, RATING_LIMITS.city),
    origin_zip_code: fits(from.zip_code, RATING_LIMITS.zip_code),
    weight,
    weight_unit: unit,
    service_code: service.service_code,
    inco_term: term,
    declared_value: declaredValue(request),
    currency: request.currency,
  };
  if (length != null && width != null && height != null && uom != null)
    freight.dimension = {
      length: upToHundredths(thousandths(length)),
      width: upToHundredths(thousandths(width)),
      height: upToHundredths(thousandths(height)),
      uom: uom as LengthUnit,
    };
  return JSON.parse(JSON.stringify(freight)) as CalculateFreightRequest;
}
