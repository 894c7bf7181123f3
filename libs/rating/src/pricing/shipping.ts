import { RatingErrorCode } from '@consign/contracts';
import type {
  CarrierService,
  Destination as DestinationRules,
  ReferenceData,
  Zone,
} from '../rate-cards/reference-data';
import { chargeableWeight } from './chargeable-weight';
import type { Parcel } from './parcel';
import { Outcome, refused } from './rating-failure';
import { Cents, MAX_CENTS, ceilDiv, mulDivHalfUp, percentOf } from './rounding';
import { hundredthsIn, weightIn } from './units';
import { Destination, findZone, isRemoteArea } from './zone';

/** The carrier's part of a price: what a service charges to carry a parcel to a destination. */
export interface ShipmentQuote {
  service: CarrierService;
  zone: Zone;
  destination: DestinationRules;
  /** Chargeable weight, rounded up to the service's increment. */
  chargeable: bigint;
  /** From the zone's weight breaks. */
  shipping: Cents;
  /** Fuel surcharge % of `shipping`. */
  fuelSurcharge: Cents;
  /** rate × chargeable weight, at least the minimum, when the destination is remote; else 0. */
  remoteAreaSurcharge: Cents;
  /** shipping + fuel surcharge + remote-area surcharge. */
  totalShipping: Cents;
}

/**
 * Prices the carriage of a parcel by one service, or says why it cannot: the destination has no
 * zone, a declared content is refused, the parcel is heavier than the service carries.
 */
export function quoteShipment(
  data: ReferenceData,
  service: CarrierService,
  originCountry: string,
  destination: Destination,
  parcel: Parcel,
): Outcome<ShipmentQuote> {
  const unit = service.chargeUnit;
  if (!service.originCountries.has(originCountry))
    return refused(
      RatingErrorCode.OriginNotServed,
      `${service.name} does not ship from ${originCountry}; it ships from ${[...service.originCountries].join(', ')}.`,
    );
  const zone = findZone(service, originCountry, destination);
  const rules = data.destinations.get(destination.countryCode);
  if (!zone || !rules)
    return refused(
      RatingErrorCode.NoZone,
      !service.domestic && originCountry === destination.countryCode
        ? `${service.name} only ships between countries, not within ${originCountry}.`
        : `${service.name} does not deliver to ${destination.label}.`,
    );
  const refusedContents = [...parcel.contents].filter((content) => service.restricted.has(content));
  if (refusedContents.length)
    return refused(
      RatingErrorCode.RestrictedContents,
      `${service.name} does not carry ${refusedContents.join(', ')}.`,
    );
  if (parcel.actual > service.maxMass)
    return refused(
      RatingErrorCode.OverWeightLimit,
      `The weight (${weightIn(parcel.actual, unit)} ${unit}) is over the ${weightIn(service.maxMass, unit)} ${unit} limit of ${service.name}.`,
    );

  const { chargeable } = chargeableWeight(service, parcel);
  const shipping = priceOf(zone, chargeable);
  if (shipping === undefined)
    return refused(
      RatingErrorCode.OverWeightLimit,
      `The chargeable weight (${weightIn(chargeable, unit)} ${unit}) is above the heaviest weight ${service.name} prices (${weightIn(zone.breaks[zone.breaks.length - 1].upTo, unit)} ${unit}).`,
    );
  if (shipping > MAX_CENTS) return outOfRange(service);
  const fuelSurcharge = percentOf(shipping, service.fuelSurcharge);
  const remoteAreaSurcharge = remoteSurcharge(service, destination, chargeable);
  const totalShipping = shipping + fuelSurcharge + remoteAreaSurcharge;
  if (totalShipping > MAX_CENTS) return outOfRange(service);
  return {
    ok: true,
    value: {
      service,
      zone,
      destination: rules,
      chargeable,
      shipping,
      fuelSurcharge,
      remoteAreaSurcharge,
      totalShipping,
    },
  };
}

/**
 * The first weight break at or above the chargeable weight; above the last one, the last price
 * plus the additional price for each started `per` above it. Undefined when the zone has no
 * additional price (the weight cannot be priced). May exceed MAX_CENTS for absurd sizes.
 */
export function priceOf(zone: Zone, chargeable: bigint): Cents | undefined {
  for (const weightBreak of zone.breaks) {
    if (chargeable <= weightBreak.upTo) return weightBreak.price;
  }
  if (!zone.additional) return undefined;
  const last = zone.breaks[zone.breaks.length - 1];
  const steps = ceilDiv(chargeable - last.upTo, zone.additional.per);
  const price = BigInt(last.price) + steps * BigInt(zone.additional.price);
  return price > BigInt(MAX_CENTS) ? MAX_CENTS + 1 : Number(price);
}

function remoteSurcharge(
  service: CarrierService,
  destination: Destination,
  chargeable: bigint,
): Cents {
  const area = service.remoteArea;
  if (!area || !isRemoteArea(service, destination)) return 0;
  const hundredths = hundredthsIn(chargeable, service.chargeUnit);
  const byWeight = Number.isSafeInteger(hundredths)
    ? mulDivHalfUp(area.rate, hundredths, 100)
    : MAX_CENTS + 1;
  return Math.max(area.minimum, byWeight);
}

function outOfRange(service: CarrierService): Outcome<ShipmentQuote> {
  return refused(
    RatingErrorCode.AmountOutOfRange,
    `The price of ${service.name} for this parcel would exceed 9999999999.99.`,
  );
}
