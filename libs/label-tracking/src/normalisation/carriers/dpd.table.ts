import { CheckpointStatus as S } from '@consign/contracts';
import { CarrierEventTable } from '../carrier-table';

export const DPD_TABLE: CarrierEventTable = {
  carrier: 'DPD',
  name: 'DPD Deutschland',
  source:
    'Representative: named after the states of DPD’s parcel life cycle; an adapter for the ' +
    'carrier’s live API extends it with the codes it actually receives.',
  codes: {
    PRE_ADVICE: S.InformationReceived,
    ACCEPTED: S.InTransit,
    AT_SENDING_DEPOT: S.InTransit,
    ON_THE_ROAD: S.InTransit,
    AT_DELIVERY_DEPOT: S.InTransit,
    OUT_FOR_DELIVERY: S.OutForDelivery,
    PICKUP_SHOP: S.AvailableForPickup,
    NOT_DELIVERED: S.DeliveryAttemptFailed,
    DELIVERED: S.Delivered,
    DELIVERED_DAMAGED: S.DeliveredWithException,
    CUSTOMS: S.Exception,
    ADDRESS_PROBLEM: S.Exception,
    RETURN_TO_SENDER: S.Exception,
    LOST: S.Exception,
    DESTROYED: S.Disposed,
  },
};
