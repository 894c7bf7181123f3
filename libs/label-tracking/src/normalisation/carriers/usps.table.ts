import { CheckpointStatus as S } from '@consign/contracts';
import { CarrierEventTable } from '../carrier-table';

export const USPS_TABLE: CarrierEventTable = {
  carrier: 'USPS',
  name: 'United States Postal Service',
  source: 'USPS tracking event codes (two characters); the common ones.',
  codes: {
    MA: S.InformationReceived, // pre-shipment info sent to USPS (manifest acknowledgement)
    GX: S.Exception, // shipping label cancelled
    '03': S.InTransit, // accepted at the USPS origin facility
    '06': S.InTransit, // forwarded
    '07': S.InTransit, // arrival at unit
    '10': S.InTransit, // processed through a facility
    L1: S.InTransit, // departed a USPS facility
    OF: S.OutForDelivery, // out for delivery
    '14': S.AvailableForPickup, // arrival at pickup point
    '16': S.AvailableForPickup, // available for pickup
    '01': S.Delivered, // delivered
    '17': S.Delivered, // picked up by agent
    '02': S.DeliveryAttemptFailed, // notice left (no authorised recipient available)
    '51': S.DeliveryAttemptFailed, // business closed
    '52': S.DeliveryAttemptFailed, // notice left
    '53': S.DeliveryAttemptFailed, // receptacle full / item oversized
    '54': S.DeliveryAttemptFailed, // no access to delivery location
    '55': S.DeliveryAttemptFailed, // animal interference
    '56': S.DeliveryAttemptFailed, // no secure location available
    '04': S.Exception, // refused
    '05': S.Exception, // undeliverable as addressed
    '08': S.Exception, // missent
    '09': S.Exception, // return to sender
    '15': S.Exception, // mis-shipped
    '21': S.Exception, // no such number
    '22': S.Exception, // insufficient address
    '23': S.Exception, // moved, left no address
    '24': S.Exception, // forward expired
    '25': S.Exception, // addressee unknown
    '26': S.Exception, // vacant
    '27': S.Exception, // unclaimed
    '28': S.Exception, // deceased
    '29': S.Exception, // returned to sender: not picked up
    '11': S.Disposed, // dead letter: the item could not be delivered or returned
  },
};
