import type { CarrierService } from '../rate-cards/reference-data';
import type { Parcel } from './parcel';
import { ceilDiv } from './rounding';
import { Mass, volumetricMass } from './units';

export interface ChargeableWeight {
  /** length × width × height / divisor; null without dimensions or divisor. */
  volumetric: Mass | null;
  /** max(actual, volumetric) rounded UP to a multiple of the service's increment. */
  chargeable: Mass;
}

/**
 * What the carrier bills by: the heavier of the actual and the volumetric weight, rounded up to
 * the service's increment (0.5 kg: 1.26 kg → 1.5 kg; 1 lb: 2.76 lb → 3 lb). Exact: a parcel of
 * exactly 2.00 lb stays at 2 lb.
 */
export function chargeableWeight(service: CarrierService, parcel: Parcel): ChargeableWeight {
  const volumetric =
    parcel.dimensions && service.volumetricDivisor
      ? volumetricMass(parcel.dimensions, service.volumetricDivisor)
      : null;
  const heavier = volumetric !== null && volumetric > parcel.actual ? volumetric : parcel.actual;
  return {
    volumetric,
    chargeable: ceilDiv(heavier, service.increment) * service.increment,
  };
}
