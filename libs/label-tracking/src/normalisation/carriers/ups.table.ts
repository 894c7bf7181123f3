import { CheckpointStatus as S } from '@consign/contracts';
import { CarrierEventTable } from '../carrier-table';

export const UPS_TABLE: CarrierEventTable = {
  carrier: 'UPS',
  name: 'United Parcel Service',
  source:
    'UPS Tracking API status types (one or two letters); type X covers every exception, so its ' +
    'text may narrow it (a failed attempt, a disposal, a hold for pickup).',
  codes: {
    M: S.InformationReceived, // manifest: label created, UPS does not hold the package yet
    MV: S.Exception, // manifest voided
    P: S.InTransit, // pickup
    I: S.InTransit, // in transit
    W: S.InTransit, // warehousing
    O: S.OutForDelivery, // out for delivery
    D: S.Delivered, // delivered
    DO: S.Delivered, // delivered at the origin CFS (freight)
    DD: S.Delivered, // delivered at the destination CFS (freight)
    RS: S.Exception, // returned to shipper
    X: {
      status: S.Exception,
      refine: [S.DeliveryAttemptFailed, S.AvailableForPickup, S.Disposed, S.DeliveredWithException],
    },
  },
  text: [
    // UPS wording for its access points ("Delivered to UPS Access Point™").
    { pattern: /\bUPS Access Point\b/i, status: S.AvailableForPickup },
  ],
};
