import {
  correlationHeaders,
  correlationIdOfHeaders,
  correlationIdOrNew,
  currentCorrelationId,
  isSaneCorrelationId,
  runWithCorrelationId,
} from './correlation';

describe('correlation id', () => {
  it.each(['abc-123', 'A.b_c:d-9', 'x'.repeat(128), '0f8fad5b-d9cb-469f-a165-70867728950e'])(
    'accepts %j',
    (id) => expect(isSaneCorrelationId(id)).toBe(true),
  );

  it.each([
    '',
    'x'.repeat(129),
    'has space',
    'a\nfake-log-line',
    'é',
    'a,b',
    '{"x":1}',
    42,
    undefined,
  ])('refuses %j', (id) => expect(isSaneCorrelationId(id)).toBe(false));

  it('keeps a sane given id and replaces anything else with a new UUID', () => {
    expect(correlationIdOrNew('abc-123')).toBe('abc-123');
    expect(correlationIdOrNew(['abc-123', 'def'])).toMatch(/^[0-9a-f-]{36}$/);
    expect(correlationIdOrNew('bad id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reads the header as Nest (strings) and kafkajs (Buffers) hand it over', () => {
    expect(correlationIdOfHeaders({ 'x-correlation-id': 'abc-123' })).toBe('abc-123');
    expect(correlationIdOfHeaders({ 'x-correlation-id': Buffer.from('abc-123') })).toBe('abc-123');
    expect(correlationIdOfHeaders({ 'x-correlation-id': 'bad id' })).toBeUndefined();
    expect(correlationIdOfHeaders(undefined)).toBeUndefined();
  });

  it('is the current id inside its scope, across awaits, and only there', async () => {
    expect(currentCorrelationId()).toBeUndefined();
    expect(correlationHeaders()).toEqual({});
    await runWithCorrelationId('abc-123', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(currentCorrelationId()).toBe('abc-123');
      expect(correlationHeaders()).toEqual({ 'x-correlation-id': 'abc-123' });
    });
    expect(currentCorrelationId()).toBeUndefined();
  });
});
