import { isCarrierCode } from '@consign/contracts';
import { SandboxStep as S } from './sandbox-script';
import {
  dhlTrackingNumber,
  dpdTrackingNumber,
  royalMailTrackingNumber,
  upsTrackingNumber,
  uspsTrackingNumber,
} from './tracking-numbers';

/** A place a step happens at, with its UTC offset (the sandbox writes local times with zones). */
export interface SandboxPlace {
  name: string;
  /** Minutes east of UTC. */
  offset: number;
}

export interface StepWording {
  code: string;
  text: string;
}

/** How one carrier tells a parcel's life: its event codes, words, places and number format. */
export interface CarrierVocabulary {
  steps: Record<S, StepWording>;
  /** Origin, hub and destination. */
  places: [SandboxPlace, SandboxPlace, SandboxPlace];
  /** The carrier's real format with its check digit (tracking-numbers.ts). */
  trackingNumber(parcelId: number): string;
}

const digits = (parcelId: number, length: number, base: number) =>
  String(base + parcelId)
    .padStart(length, '0')
    .slice(-length);

const DHL: CarrierVocabulary = {
  steps: {
    [S.Allocated]: { code: 'SD', text: 'Shipment information received' },
    [S.PickedUp]: { code: 'PU', text: 'Shipment picked up' },
    [S.DepartedOrigin]: { code: 'DF', text: 'Departed Facility' },
    [S.ArrivedHub]: { code: 'AF', text: 'Arrived at Sort Facility' },
    [S.ArrivedDeliveryDepot]: { code: 'AR', text: 'Arrived at Delivery Facility' },
    [S.CustomsHeld]: { code: 'CD', text: 'Clearance delay' },
    [S.CustomsReleased]: { code: 'CR', text: 'Clearance processing complete' },
    [S.OutForDelivery]: { code: 'WC', text: 'With delivery courier' },
    [S.AttemptFailed]: { code: 'NH', text: 'Delivery attempted; recipient not home' },
    [S.AvailableForPickup]: { code: 'CC', text: 'Awaiting collection at a DHL Service Point' },
    [S.Delivered]: { code: 'OK', text: 'Delivered' },
    [S.Returned]: { code: 'RT', text: 'Returned to shipper' },
  },
  places: [
    { name: 'London - UK', offset: 60 },
    { name: 'Leipzig - Germany', offset: 120 },
    { name: 'Berlin - Germany', offset: 120 },
  ],
  trackingNumber: dhlTrackingNumber,
};

const UPS: CarrierVocabulary = {
  steps: {
    [S.Allocated]: {
      code: 'M',
      text: 'Shipper created a label, UPS has not received the package yet.',
    },
    [S.PickedUp]: { code: 'P', text: 'Pickup Scan' },
    [S.DepartedOrigin]: { code: 'I', text: 'Departed from Facility' },
    [S.ArrivedHub]: { code: 'I', text: 'Arrived at Facility' },
    [S.ArrivedDeliveryDepot]: { code: 'I', text: 'Destination Scan' },
    [S.CustomsHeld]: { code: 'X', text: 'Your package is being held in customs.' },
    [S.CustomsReleased]: { code: 'I', text: 'Import Scan: customs clearance completed' },
    [S.OutForDelivery]: { code: 'O', text: 'Out For Delivery Today' },
    [S.AttemptFailed]: {
      code: 'X',
      text: "The receiver was not available for delivery. We'll make a second attempt the next business day.",
    },
    [S.AvailableForPickup]: {
      code: 'X',
      text: 'Delivered to UPS Access Point™. Awaiting customer pickup.',
    },
    [S.Delivered]: { code: 'D', text: 'Delivered' },
    [S.Returned]: { code: 'RS', text: 'Returned to shipper' },
  },
  places: [
    { name: 'Secaucus, NJ, United States', offset: -240 },
    { name: 'Louisville, KY, United States', offset: -240 },
    { name: 'Chicago, IL, United States', offset: -300 },
  ],
  trackingNumber: (id) => upsTrackingNumber(id),
};

const USPS: CarrierVocabulary = {
  steps: {
    [S.Allocated]: { code: 'MA', text: 'Shipping Label Created, USPS Awaiting Item' },
    [S.PickedUp]: { code: '03', text: 'USPS in possession of item' },
    [S.DepartedOrigin]: { code: 'L1', text: 'Departed USPS Regional Facility' },
    [S.ArrivedHub]: { code: '10', text: 'Arrived at USPS Regional Facility' },
    [S.ArrivedDeliveryDepot]: { code: '07', text: 'Arrived at Post Office' },
    // USPS has no code of its own for these: the text decides (the tables' fallback).
    [S.CustomsHeld]: { code: 'CH', text: 'Held in Customs' },
    [S.CustomsReleased]: { code: 'CX', text: 'Customs Clearance Processing Complete' },
    [S.OutForDelivery]: { code: 'OF', text: 'Out for Delivery' },
    [S.AttemptFailed]: { code: '02', text: 'Notice Left (No Authorized Recipient Available)' },
    [S.AvailableForPickup]: { code: '16', text: 'Available for Pickup' },
    [S.Delivered]: { code: '01', text: 'Delivered, In/At Mailbox' },
    [S.Returned]: { code: '09', text: 'Return to Sender' },
  },
  places: [
    { name: 'NEW YORK, NY 10001', offset: -240 },
    { name: 'JERSEY CITY NJ NETWORK DISTRIBUTION CENTER', offset: -240 },
    { name: 'CHICAGO, IL 60601', offset: -300 },
  ],
  trackingNumber: (id) => uspsTrackingNumber(id),
};

const DPD: CarrierVocabulary = {
  steps: {
    [S.Allocated]: { code: 'PRE_ADVICE', text: 'Order information has been transmitted to DPD.' },
    [S.PickedUp]: { code: 'ACCEPTED', text: 'The parcel was handed over to DPD.' },
    [S.DepartedOrigin]: { code: 'AT_SENDING_DEPOT', text: 'At parcel delivery centre.' },
    [S.ArrivedHub]: { code: 'ON_THE_ROAD', text: 'In transit.' },
    [S.ArrivedDeliveryDepot]: { code: 'AT_DELIVERY_DEPOT', text: 'At delivery depot.' },
    [S.CustomsHeld]: { code: 'CUSTOMS', text: 'Customs clearance is delayed.' },
    [S.CustomsReleased]: { code: 'ON_THE_ROAD', text: 'Customs clearance completed.' },
    [S.OutForDelivery]: { code: 'OUT_FOR_DELIVERY', text: 'Out for delivery.' },
    [S.AttemptFailed]: {
      code: 'NOT_DELIVERED',
      text: 'Unfortunately we have not been able to deliver your parcel.',
    },
    [S.AvailableForPickup]: {
      code: 'PICKUP_SHOP',
      text: 'Delivered to the DPD Pickup parcelshop.',
    },
    [S.Delivered]: { code: 'DELIVERED', text: 'Delivered.' },
    [S.Returned]: { code: 'RETURN_TO_SENDER', text: 'Returned to sender.' },
  },
  places: [
    { name: 'Hamburg (DE)', offset: 120 },
    { name: 'Hub Hünfeld (DE)', offset: 120 },
    { name: 'München (DE)', offset: 120 },
  ],
  trackingNumber: (id) => dpdTrackingNumber(id),
};

const RM: CarrierVocabulary = {
  steps: {
    [S.Allocated]: { code: 'SENDER_PREPARING', text: 'Sender preparing item' },
    [S.PickedUp]: { code: 'ITEM_RECEIVED', text: 'Item received' },
    [S.DepartedOrigin]: { code: 'IN_TRANSIT', text: 'Item in transit' },
    [S.ArrivedHub]: { code: 'IN_TRANSIT', text: 'Item processed at mail centre' },
    [S.ArrivedDeliveryDepot]: { code: 'AT_DELIVERY_OFFICE', text: 'Item at delivery office' },
    [S.CustomsHeld]: { code: 'CUSTOMS_HOLD', text: 'Item held by customs' },
    [S.CustomsReleased]: { code: 'IN_TRANSIT', text: 'Item released from customs' },
    [S.OutForDelivery]: { code: 'OUT_FOR_DELIVERY', text: 'Out for delivery' },
    [S.AttemptFailed]: {
      code: 'SOMETHING_FOR_YOU',
      text: 'We tried to deliver your item: Something for You card left',
    },
    [S.AvailableForPickup]: {
      code: 'HELD_AT_POST_OFFICE',
      text: 'Item ready for collection at the Post Office',
    },
    [S.Delivered]: { code: 'DELIVERED', text: 'Delivered' },
    [S.Returned]: { code: 'RETURNED_TO_SENDER', text: 'Item returned to sender' },
  },
  places: [
    { name: 'Manchester Mail Centre', offset: 60 },
    { name: 'Heathrow Worldwide DC', offset: 60 },
    { name: 'London Delivery Office', offset: 60 },
  ],
  trackingNumber: (id) => royalMailTrackingNumber(id),
};

/** Any other carrier: plain English texts under neutral codes (normalised by text alone). */
const GENERIC: CarrierVocabulary = {
  steps: {
    [S.Allocated]: { code: 'E00', text: 'Shipment information received' },
    [S.PickedUp]: { code: 'E10', text: 'Picked up by courier' },
    [S.DepartedOrigin]: { code: 'E20', text: 'Departed origin facility' },
    [S.ArrivedHub]: { code: 'E30', text: 'Arrived at sort facility' },
    [S.ArrivedDeliveryDepot]: { code: 'E40', text: 'Arrived at delivery depot' },
    [S.CustomsHeld]: { code: 'E50', text: 'Held by customs' },
    [S.CustomsReleased]: { code: 'E55', text: 'Customs clearance completed' },
    [S.OutForDelivery]: { code: 'E60', text: 'Out for delivery' },
    [S.AttemptFailed]: { code: 'E70', text: 'Delivery attempted: recipient not home' },
    [S.AvailableForPickup]: { code: 'E75', text: 'Ready for pickup at the parcel shop' },
    [S.Delivered]: { code: 'E80', text: 'Delivered' },
    [S.Returned]: { code: 'E90', text: 'Returned to sender' },
  },
  places: [
    { name: 'Origin depot', offset: 0 },
    { name: 'Sort centre', offset: 0 },
    { name: 'Delivery depot', offset: 0 },
  ],
  trackingNumber: (id) => `SBX${digits(id, 12, 0)}`,
};

export const CARRIER_VOCABULARIES: Readonly<Record<string, CarrierVocabulary>> = {
  DHL,
  UPS,
  USPS,
  DPD,
  RM,
};

export function vocabularyOf(carrierCode: string): CarrierVocabulary {
  return CARRIER_VOCABULARIES[carrierCode] ?? GENERIC;
}

export const GENERIC_VOCABULARY = GENERIC;

/**
 * The carrier a label's service belongs to when the label does not say: the service code's
 * prefix (`DHL-EXPRESS` → `DHL`), or `SANDBOX`.
 */
export function carrierOfService(serviceCode: string): string {
  const prefix = serviceCode.split('-')[0].toUpperCase();
  return isCarrierCode(prefix) ? prefix : 'SANDBOX';
}
