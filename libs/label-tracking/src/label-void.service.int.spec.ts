import {
  CustomsForm,
  LabelDocumentFormat,
  LabelDocumentType,
  LabelErrorCode,
  LabelEvent,
  success,
} from '@consign/contracts';
import {
  LabelTrackingHarness,
  TEST_PRICE,
  aCarrierEvent,
  startLabelTracking,
} from './testing/label-tracking.harness';
import { decodeBarcodes } from '@consign/testing';

/** Voiding labels and rendering their documents, on a real database. */
describe('label void and documents', () => {
  let h: LabelTrackingHarness;
  let voided: unknown[];
  const merchant = 3;

  beforeAll(async () => {
    h = await startLabelTracking();
    voided = [];
    h.broker.registerEventHandler(LabelEvent.Voided, async (event) => {
      voided.push(event);
    });
  });

  afterAll(async () => {
    await h.close();
  });

  beforeEach(() => {
    h.rating.answer = success({ ...TEST_PRICE, customs_form: CustomsForm.CN22 });
  });

  const allocate = (labelId: number, number: string, time = '2026-05-02T09:00:00+01:00') =>
    h.ingestor.ingest([
      aCarrierEvent({
        label_id: labelId,
        event_code: 'SD',
        description: 'Shipment information received',
        event_time: time,
        allocation: { tracking_courier: 'DHL', tracking_number: number },
      }),
    ]);
  const scan = (labelId: number, code: string, text: string, time: string) =>
    h.ingestor.ingest([
      aCarrierEvent({ label_id: labelId, event_code: code, description: text, event_time: time }),
    ]);
  const document = (labelId: number, format: LabelDocumentFormat, type = LabelDocumentType.Label) =>
    h.documents.render(merchant, labelId, format, type);

  it('answers 409 for documents before the carrier allocates a number, never a placeholder', async () => {
    const id = await h.createLabel(merchant);
    await expect(document(id, LabelDocumentFormat.Pdf)).rejects.toMatchObject({
      code: LabelErrorCode.NotAllocated,
      message: expect.stringContaining('has no tracking number yet'),
    });
    expect((await h.labels.get(merchant, id)).documents).toEqual([]);
  });

  it('renders the documents once numbered, and lists them on the label', async () => {
    const id = await h.createLabel(merchant);
    await allocate(id, '3000001234');
    const label = await h.labels.get(merchant, id);
    expect(label.customs_form).toBe('CN22');
    expect(label.documents.map((d) => `${d.type}:${d.format}:${d.content_type}`)).toEqual([
      'label:pdf:application/pdf',
      'label:png:image/png',
      'label:zpl:application/zpl',
      'customs:pdf:application/pdf',
    ]);
    expect(label.documents[3].url).toBe(
      `/2026-05/cloud/label/${id}/document?format=pdf&type=customs`,
    );
    const png = await document(id, LabelDocumentFormat.Png);
    expect(png).toMatchObject({ content_type: 'image/png', filename: `label-${id}.png` });
    expect(await decodeBarcodes(Buffer.from(png.body_base64, 'base64'))).toContainEqual({
      format: 'Code128',
      text: '3000001234',
    });
    const customs = await document(id, LabelDocumentFormat.Pdf, LabelDocumentType.Customs);
    expect(customs.filename).toBe(`label-${id}-cn22.pdf`);
    await expect(
      document(id, LabelDocumentFormat.Zpl, LabelDocumentType.Customs),
    ).rejects.toMatchObject({ code: 'common.validation' });
  });

  it('has no customs declaration for a label within one customs territory (404)', async () => {
    h.rating.answer = success({ ...TEST_PRICE, customs_form: null });
    const id = await h.createLabel(merchant);
    await allocate(id, '3000001241');
    await expect(
      document(id, LabelDocumentFormat.Pdf, LabelDocumentType.Customs),
    ).rejects.toMatchObject({ code: LabelErrorCode.NoCustomsDeclaration });
  });

  it('voids an unscanned label: status, tracking, refund, 410 for documents, idempotent', async () => {
    const id = await h.createLabel(merchant);
    await allocate(id, '3000001255');
    // The merchant voids it after the carrier's allocation (the clock is the service's).
    h.clock.set('2026-05-02T12:00:00.000Z');
    const view = await h.voids.void(merchant, id);
    expect(view).toMatchObject({
      status: 'voided',
      documents: [],
      void: {
        voided_time: expect.any(String),
        refunded_amount: TEST_PRICE.amount,
        refunded_currency: TEST_PRICE.currency,
        late_carrier_events: [],
      },
    });
    const tracking = await h.tracking.labelTracking(merchant, id);
    expect(tracking.checkpoints[0]).toMatchObject({
      local_time: '2026-05-02T12:00:00.000Z',
      status: 'exception',
      description: expect.stringContaining('Label voided by the merchant'),
    });
    await expect(document(id, LabelDocumentFormat.Pdf)).rejects.toMatchObject({
      code: LabelErrorCode.Voided,
    });
    await h.outbox.flush();
    const announced = voided.length;
    expect(voided).toContainEqual(
      expect.objectContaining({
        payload: { label_id: id, carrier_code: 'DHL', tracking_number: '3000001255' },
      }),
    );
    // Again: the same answer, no second checkpoint, no second event.
    const again = await h.voids.void(merchant, id);
    expect(again.void).toEqual(view.void);
    await h.outbox.flush();
    expect(voided).toHaveLength(announced);
    const after = await h.tracking.labelTracking(merchant, id);
    expect(after.checkpoints.filter((c) => c.status === 'exception')).toHaveLength(1);
  });

  it('refuses to void after the first carrier scan (409, naming it)', async () => {
    const id = await h.createLabel(merchant);
    await allocate(id, '3000001262', '2026-05-02T14:00:00+01:00');
    await scan(id, 'PU', 'Shipment picked up', '2026-05-02T15:00:00+01:00');
    await expect(h.voids.void(merchant, id)).rejects.toMatchObject({
      code: LabelErrorCode.AlreadyScanned,
      message: expect.stringContaining('"Shipment picked up"'),
    });
    expect((await h.labels.get(merchant, id)).status).toBe('in_transit');
  });

  it('keeps and flags a carrier event after the void, and does not revive the label', async () => {
    const id = await h.createLabel(merchant);
    await allocate(id, '3000001276');
    await h.voids.void(merchant, id);
    const [outcome] = await scan(id, 'OK', 'Delivered', '2026-05-03T11:00:00+01:00');
    expect(outcome).toBe('recorded');
    const label = await h.labels.get(merchant, id);
    expect(label.status).toBe('voided');
    expect(label.delivered_time).toBeNull();
    expect(label.void?.late_carrier_events).toEqual([
      {
        local_time: '2026-05-03T10:00:00.000Z',
        details: 'Leipzig, DE',
        description: 'Delivered',
        status: 'delivered',
      },
    ]);
    const tracking = await h.tracking.labelTracking(merchant, id);
    expect(tracking.delivered_time).toBeNull();
    expect(tracking.checkpoints.map((c) => c.status)).not.toContain('delivered');
  });

  it('answers 404 for another merchant’s label', async () => {
    const id = await h.createLabel(merchant);
    await expect(h.voids.void(merchant + 1, id)).rejects.toMatchObject({
      code: LabelErrorCode.LabelNotFound,
    });
  });
});
