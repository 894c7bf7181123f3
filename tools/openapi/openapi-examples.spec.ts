import { ExampleMaker, JsonSchema } from './openapi-examples';

describe('ExampleMaker', () => {
  const text: JsonSchema = { type: 'string' };
  const maker = new ExampleMaker({
    CreateProductRequest: { type: 'object', properties: { description: text } },
    CarrierEventDto: { type: 'object', properties: { description: text, location: text } },
    RejectInboundRequest: { type: 'object', properties: { reason: text } },
    HoldOrderRequest: { type: 'object', properties: { reason: text } },
    OrderView: { type: 'object', properties: { issue_date: text, created_time: text } },
    InboundOrderView: { type: 'object', properties: { expected_inbound_date: text } },
  });

  it('picks a value by the property name, and by Schema.property where the name means more than one thing', () => {
    expect(maker.component('CreateProductRequest')).toEqual({
      description: 'Organic cotton tee, regular fit',
    });
    expect(maker.component('CarrierEventDto')).toEqual({
      description: 'In transit to the delivery depot',
      location: 'Leipzig, DE',
    });
    expect(maker.component('RejectInboundRequest')).toEqual({ reason: 'Cartons arrived damaged' });
    expect(maker.component('HoldOrderRequest')).toEqual({
      reason: 'Customer asked to change the address',
    });
  });

  it('keeps to the schema: a named value the schema refuses gives way to one it accepts', () => {
    expect(maker.of({ type: 'string', maxLength: 2 }, 'country')).toBe('DE');
    expect(maker.of({ type: 'number', maximum: 0.1 }, 'weight')).toBe(0.1);
  });

  it('dates a *_date, times a *_time, and a value named for the property goes before either', () => {
    expect(maker.component('InboundOrderView')).toEqual({ expected_inbound_date: '2026-05-14' });
    // interface.md: an order's issue_date is a Date Time, as its created_time.
    expect(maker.component('OrderView')).toEqual({
      issue_date: '2026-05-14T09:30:00Z',
      created_time: '2026-05-14T09:30:00Z',
    });
  });
});
