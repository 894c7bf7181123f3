import { ExampleMaker, JsonSchema } from './openapi-examples';

describe('ExampleMaker', () => {
  const text: JsonSchema = { type: 'string' };
  const maker = new ExampleMaker({
    CreateProductRequest: { type: 'object', properties: { description: text } },
    CarrierEventDto: { type: 'object', properties: { description: text, location: text } },
    RejectInboundRequest: { type: 'object', properties: { reason: text } },
    HoldOrderRequest: { type: 'object', properties: { reason: text } },
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
});
