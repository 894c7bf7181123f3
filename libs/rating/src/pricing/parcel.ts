import {
  CalculateFreightRequest,
  CalculateOrderRequest,
  ContentFlag,
  DimensionDto,
  RestrictedContent,
  freightWeightUnit,
} from '@consign/contracts';
import { Cents, centsOf } from './rounding';
import { Length, Mass, lengthOf, massOf } from './units';

/** What is shipped, exactly, whichever units the request used. */
export interface Parcel {
  actual: Mass;
  /** Longest first; null when the request gave no dimensions. */
  dimensions: Length[] | null;
  /** Contents the request declared present ("Yes"). */
  contents: ReadonlySet<RestrictedContent>;
  /** Declared value for customs, when given. */
  declared: { amount: Cents; currency: string } | null;
  /** Units picked; calculation requests carry no item count, so 1. */
  units: number;
}

/** The currency of a declared value whose request names none (the spec's order default). */
export const DEFAULT_DECLARED_CURRENCY = 'USD';

export function orderParcel(request: CalculateOrderRequest): Parcel {
  const contents = new Set<RestrictedContent>();
  if (request.alcohol === ContentFlag.Yes) contents.add(RestrictedContent.Alcohol);
  if (request.battery === ContentFlag.Yes) contents.add(RestrictedContent.Battery);
  if (request.liquid === ContentFlag.Yes) contents.add(RestrictedContent.Liquid);
  return {
    actual: massOf(request.weight, request.weight_unit),
    dimensions: dimensionsOf(request.dimension),
    contents,
    declared: declaredOf(request),
    units: 1,
  };
}

/** The same parcel as calculate/order would see it: a freight request carries no contents. */
export function freightParcel(request: CalculateFreightRequest): Parcel {
  return {
    actual: massOf(request.weight, freightWeightUnit(request)),
    dimensions: dimensionsOf(request.dimension),
    contents: new Set(),
    declared: declaredOf(request),
    units: 1,
  };
}

function declaredOf(request: {
  declared_value?: number | null;
  currency?: string | null;
}): Parcel['declared'] {
  return request.declared_value === undefined || request.declared_value === null
    ? null
    : {
        amount: centsOf(request.declared_value),
        currency: request.currency ?? DEFAULT_DECLARED_CURRENCY,
      };
}

function dimensionsOf(dimension: DimensionDto | undefined | null): Length[] | null {
  if (!dimension) return null;
  return [dimension.length, dimension.width, dimension.height]
    .map((side) => lengthOf(side, dimension.uom))
    .sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
}
