import { CheckpointStatus as S } from '@consign/contracts';
import { CarrierEventTable } from '../carrier-table';

export const DHL_TABLE: CarrierEventTable = {
  carrier: 'DHL',
  name: 'DHL Express',
  source: 'DHL Express checkpoint codes (two letters) as shown in its tracking; the common ones.',
  codes: {
    SD: S.InformationReceived, // shipment information received
    PU: S.InTransit, // shipment picked up
    SA: S.InTransit, // shipment acceptance
    PL: S.InTransit, // processed at location
    DF: S.InTransit, // departed facility
    AF: S.InTransit, // arrived at facility
    AR: S.InTransit, // arrived at delivery facility
    TR: S.InTransit, // transferred through
    CR: S.InTransit, // clearance release
    RR: S.InTransit, // customs status updated
    TP: S.InTransit, // forwarded to a third party
    WC: S.OutForDelivery, // with delivery courier
    CC: S.AvailableForPickup, // awaiting collection by the consignee
    NH: S.DeliveryAttemptFailed, // not home
    CA: S.DeliveryAttemptFailed, // closed on arrival
    OK: S.Delivered, // delivery
    DD: S.DeliveredWithException, // delivered damaged
    PD: S.DeliveredWithException, // partial delivery
    BA: S.Exception, // bad address
    CM: S.Exception, // consignee moved
    CD: S.Exception, // clearance delay
    HP: S.Exception, // held for payment
    OH: S.Exception, // on hold
    MS: S.Exception, // mis-sorted
    RD: S.Exception, // refused delivery
    RT: S.Exception, // returned to shipper
    SS: S.Exception, // shipment stopped
    DS: S.Disposed, // destroyed / disposal
  },
};
