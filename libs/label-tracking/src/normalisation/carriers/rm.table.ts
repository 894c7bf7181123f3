import { CheckpointStatus as S } from '@consign/contracts';
import { CarrierEventTable } from '../carrier-table';

export const RM_TABLE: CarrierEventTable = {
  carrier: 'RM',
  name: 'Royal Mail',
  source:
    'Representative: named after the stages of Royal Mail tracked services; an adapter for the ' +
    'carrier’s live API extends it with the codes it actually receives.',
  codes: {
    SENDER_PREPARING: S.InformationReceived,
    ITEM_RECEIVED: S.InTransit,
    IN_TRANSIT: S.InTransit,
    AT_DELIVERY_OFFICE: S.InTransit,
    OUT_FOR_DELIVERY: S.OutForDelivery,
    HELD_AT_POST_OFFICE: S.AvailableForPickup,
    SOMETHING_FOR_YOU: S.DeliveryAttemptFailed, // the "we missed you" card
    DELIVERED: S.Delivered,
    DELIVERED_DAMAGED: S.DeliveredWithException,
    CUSTOMS_HOLD: S.Exception,
    RETURNED_TO_SENDER: S.Exception,
    UNDELIVERABLE: S.Exception,
    DISPOSED: S.Disposed,
  },
};
