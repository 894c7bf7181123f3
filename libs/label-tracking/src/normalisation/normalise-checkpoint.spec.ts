import { CheckpointStatus as S, isCarrierCode } from '@consign/contracts';
import { CarrierEventTable } from './carrier-table';
import { CARRIER_TABLES } from './carrier-tables';
import { DHL_TABLE } from './carriers/dhl.table';
import { DPD_TABLE } from './carriers/dpd.table';
import { RM_TABLE } from './carriers/rm.table';
import { UPS_TABLE } from './carriers/ups.table';
import { USPS_TABLE } from './carriers/usps.table';
import { GENERIC_TEXT_RULES } from './generic-text-rules';
import { CheckpointNormaliser } from './normalise-checkpoint';

const normaliser = new CheckpointNormaliser();
const statusOf = (carrier: string, code: string, text = '') =>
  normaliser.normalise(carrier, code, text).status;
const ALL_STATUSES = Object.values(S);

describe('carrier tables', () => {
  it('have one table per carrier, each named by a valid carrier code', () => {
    const carriers = CARRIER_TABLES.map((t) => t.carrier);
    expect(new Set(carriers).size).toBe(carriers.length);
    for (const carrier of carriers) expect(isCarrierCode(carrier)).toBe(true);
  });

  describe.each(CARRIER_TABLES.map((t): [string, CarrierEventTable] => [t.carrier, t]))(
    '%s',
    (_carrier, table) => {
      it('maps every code to one of the spec statuses, with codes written as they are looked up', () => {
        for (const [code, entry] of Object.entries(table.codes)) {
          expect(code).toBe(code.trim().toUpperCase());
          const statuses = typeof entry === 'string' ? [entry] : [entry.status, ...entry.refine];
          for (const status of statuses) expect(ALL_STATUSES).toContain(status);
        }
      });

      it('never maps a code to expired or unknown (Consign decides those)', () => {
        for (const entry of Object.values(table.codes)) {
          const status = typeof entry === 'string' ? entry : entry.status;
          expect([S.Expired, S.Unknown]).not.toContain(status);
        }
      });

      it('says where its codes come from', () => {
        expect(table.source.length).toBeGreaterThan(20);
      });
    },
  );
});

describe('DHL', () => {
  it.each<[string, S]>([
    ['SD', S.InformationReceived],
    ['PU', S.InTransit],
    ['PL', S.InTransit],
    ['DF', S.InTransit],
    ['AF', S.InTransit],
    ['CR', S.InTransit],
    ['WC', S.OutForDelivery],
    ['CC', S.AvailableForPickup],
    ['NH', S.DeliveryAttemptFailed],
    ['CA', S.DeliveryAttemptFailed],
    ['OK', S.Delivered],
    ['DD', S.DeliveredWithException],
    ['PD', S.DeliveredWithException],
    ['CD', S.Exception],
    ['RT', S.Exception],
    ['DS', S.Disposed],
  ])('%s is %s', (code, status) => {
    expect(statusOf('DHL', code)).toBe(status);
  });

  it('looks codes up whatever their case and surrounding spaces', () => {
    expect(statusOf('DHL', ' ok ')).toBe(S.Delivered);
    expect(statusOf('DHL', 'wc')).toBe(S.OutForDelivery);
  });

  it('trusts the code over a misleading text', () => {
    expect(statusOf('DHL', 'OK', 'Delivery attempt failed')).toBe(S.Delivered);
  });
});

describe('UPS', () => {
  it.each<[string, S]>([
    ['M', S.InformationReceived],
    ['P', S.InTransit],
    ['I', S.InTransit],
    ['O', S.OutForDelivery],
    ['D', S.Delivered],
    ['RS', S.Exception],
    ['MV', S.Exception],
  ])('%s is %s', (code, status) => {
    expect(statusOf('UPS', code)).toBe(status);
  });

  describe('type X (every exception) is narrowed by its text', () => {
    it.each<[string, S]>([
      [
        'The receiver was not available for delivery. We’ll make a second attempt.',
        S.DeliveryAttemptFailed,
      ],
      ['The package is being held for collection at the UPS Access Point.', S.AvailableForPickup],
      ['The package was destroyed at the shipper’s request.', S.Disposed],
      ['The address is incorrect. We are attempting to update it.', S.Exception],
      ['Weather delay', S.Exception],
    ])('%s → %s', (text, status) => {
      expect(statusOf('UPS', 'X', text)).toBe(status);
    });

    it('is never narrowed to a status outside its list', () => {
      expect(statusOf('UPS', 'X', 'Out for delivery today')).toBe(S.Exception);
    });
  });

  it('recognises its own wording when the code is unknown', () => {
    expect(normaliser.normalise('UPS', 'KB', 'Delivered to UPS Access Point™')).toEqual({
      status: S.AvailableForPickup,
      by: 'carrier_text',
    });
  });
});

describe('USPS', () => {
  it.each<[string, S]>([
    ['MA', S.InformationReceived],
    ['03', S.InTransit],
    ['10', S.InTransit],
    ['OF', S.OutForDelivery],
    ['16', S.AvailableForPickup],
    ['02', S.DeliveryAttemptFailed],
    ['53', S.DeliveryAttemptFailed],
    ['01', S.Delivered],
    ['09', S.Exception],
    ['05', S.Exception],
    ['11', S.Disposed],
  ])('%s is %s', (code, status) => {
    expect(statusOf('USPS', code)).toBe(status);
  });
});

describe.each<[string, CarrierEventTable, [string, S][]]>([
  [
    'DPD',
    DPD_TABLE,
    [
      ['PRE_ADVICE', S.InformationReceived],
      ['AT_DELIVERY_DEPOT', S.InTransit],
      ['OUT_FOR_DELIVERY', S.OutForDelivery],
      ['PICKUP_SHOP', S.AvailableForPickup],
      ['NOT_DELIVERED', S.DeliveryAttemptFailed],
      ['DELIVERED', S.Delivered],
      ['DELIVERED_DAMAGED', S.DeliveredWithException],
      ['RETURN_TO_SENDER', S.Exception],
      ['DESTROYED', S.Disposed],
    ],
  ],
  [
    'RM',
    RM_TABLE,
    [
      ['SENDER_PREPARING', S.InformationReceived],
      ['ITEM_RECEIVED', S.InTransit],
      ['OUT_FOR_DELIVERY', S.OutForDelivery],
      ['HELD_AT_POST_OFFICE', S.AvailableForPickup],
      ['SOMETHING_FOR_YOU', S.DeliveryAttemptFailed],
      ['DELIVERED', S.Delivered],
      ['CUSTOMS_HOLD', S.Exception],
      ['DISPOSED', S.Disposed],
    ],
  ],
])('%s', (carrier, table, cases) => {
  it.each(cases)('%s is %s', (code, status) => {
    expect(table.codes[code]).toBe(status);
    expect(statusOf(carrier, code)).toBe(status);
  });
});

describe('fallback for codes no table knows', () => {
  it.each<[string, S]>([
    ['Shipping label created, USPS awaiting item', S.InformationReceived],
    ['Shipment information received', S.InformationReceived],
    ['Picked up by courier', S.InTransit],
    ['Arrived at sort facility LEIPZIG - GERMANY', S.InTransit],
    ['Departed from facility', S.InTransit],
    ['Customs clearance completed', S.InTransit],
    ['Out for delivery', S.OutForDelivery],
    ['With delivery courier', S.OutForDelivery],
    ['Ready for pickup at the parcel shop', S.AvailableForPickup],
    ['Awaiting collection at post office', S.AvailableForPickup],
    ['Delivery attempted: recipient not home', S.DeliveryAttemptFailed],
    ['Parcel could not be delivered, notice left', S.DeliveryAttemptFailed],
    ['Delivered, front door', S.Delivered],
    ['Collected by the recipient', S.Delivered],
    ['Delivered but the parcel was damaged', S.DeliveredWithException],
    ['Partially delivered', S.DeliveredWithException],
    ['Held by customs', S.Exception],
    ['Returned to sender', S.Exception],
    ['Incorrect address', S.Exception],
    ['Parcel lost', S.Exception],
    ['Destroyed by customs', S.Disposed],
    ['Abandoned by the consignee and disposed of', S.Disposed],
  ])('%s → %s', (text, status) => {
    expect(normaliser.normalise('ACME-POST', 'E99', text)).toEqual({ status, by: 'generic_text' });
  });

  it('also applies to a known carrier with an unknown code', () => {
    expect(normaliser.normalise('DHL', 'ZZ', 'Out for delivery')).toEqual({
      status: S.OutForDelivery,
      by: 'generic_text',
    });
  });

  it('is unknown when nothing matches; the text is kept by the caller as the description', () => {
    expect(normaliser.normalise('DHL', 'ZZ', 'Sendung im Paketzentrum bearbeitet')).toEqual({
      status: S.Unknown,
      by: 'none',
    });
    expect(normaliser.normalise('ACME-POST', 'E1', 'Status 7')).toEqual({
      status: S.Unknown,
      by: 'none',
    });
  });

  it('keeps delivered_with_exception, disposed and exception apart', () => {
    const statuses = [
      'Delivered damaged',
      'Item destroyed',
      'Damaged in transit',
      'Expected delivery date has passed',
    ].map((text) => statusOf('ACME-POST', 'E1', text));
    expect(statuses).toEqual([S.DeliveredWithException, S.Disposed, S.Exception, S.Unknown]);
  });

  it('never yields expired from a carrier text (only the 30-day sweep does)', () => {
    expect(GENERIC_TEXT_RULES.map((rule) => rule.status)).not.toContain(S.Expired);
    expect(statusOf('ACME-POST', 'E1', 'Shipment expired')).not.toBe(S.Expired);
  });

  it('knows which carriers have a table', () => {
    expect(normaliser.knows('DHL')).toBe(true);
    expect(normaliser.knows('ACME-POST')).toBe(false);
  });
});

describe('a normaliser over other tables', () => {
  it('uses the tables it is given', () => {
    const own = new CheckpointNormaliser([
      { carrier: 'ACME', name: 'Acme', source: 'a test table', codes: { Z1: S.Delivered } },
    ]);
    expect(own.normalise('ACME', 'z1', '')).toEqual({ status: S.Delivered, by: 'carrier_code' });
    expect(own.normalise('DHL', 'OK', '')).toEqual({ status: S.Unknown, by: 'none' });
  });

  it('covers every table the registry lists', () => {
    expect(CARRIER_TABLES).toEqual([DHL_TABLE, UPS_TABLE, USPS_TABLE, DPD_TABLE, RM_TABLE]);
  });
});
