import { kafkaMessage } from '@consign/testing/fixtures';
import { ReadAgainOnce, lostItsValue } from './read-again';

describe('lostItsValue', () => {
  const message = (headers: Record<string, string> | undefined, value: string | null) => ({
    headers,
    value: value === null ? null : Buffer.from(value),
  });

  it('is false for a message with a header, whatever its value', () => {
    expect(lostItsValue(message({ 'x-correlation-id': 'c1' }, '{"a":1}'))).toBe(false);
    expect(lostItsValue(message({ 'x-correlation-id': 'c1' }, 'not json'))).toBe(false);
  });

  it('is false for a message without headers whose value is JSON (a carrier publishing by hand)', () => {
    expect(lostItsValue(message({}, '{"tracking_number":"1Z"}'))).toBe(false);
    expect(lostItsValue(message(undefined, '"a string"'))).toBe(false);
    expect(lostItsValue(message({}, ' \n [1, 2]'))).toBe(false);
    for (const value of ['-1', '0', 'true', 'false', 'null'])
      expect(lostItsValue(message({}, value))).toBe(false);
  });

  it("is true for a message without headers whose value is not JSON: Mokapi's broken record", () => {
    // What Mokapi 0.52 served once: the record's headers read as its value.
    expect(lostItsValue(message({}, '\u0004&kafka_correlationId*abc'))).toBe(true);
    expect(lostItsValue(message({}, ''))).toBe(true);
    expect(lostItsValue(message({}, '  '))).toBe(true);
    expect(lostItsValue(message({}, 'oops: not json'))).toBe(true);
    expect(lostItsValue(message(undefined, null))).toBe(true);
  });
});

describe('ReadAgainOnce', () => {
  const at = (offset: string, partition = 0) => ({ topic: 'label.events', partition, offset });

  it('reads a record again the first time, handles it the second time, logging both', () => {
    const warn = jest.fn();
    const reads = new ReadAgainOnce({ warn }, 'a message');
    expect(reads.readAgain(null, at('7'), 'came broken', 'handled as it is')).toBe(true);
    expect(warn).toHaveBeenLastCalledWith(
      'a message on label.events[0] offset 7 came broken: reading it again',
    );
    expect(reads.readAgain(null, at('7'), 'came broken', 'handled as it is')).toBe(false);
    expect(warn).toHaveBeenLastCalledWith(
      'a message on label.events[0] offset 7 came broken again: handled as it is',
    );
    // Another broken reading of the same record later is a new occurrence: read again once more.
    expect(reads.readAgain(null, at('7'), 'came broken', 'handled as it is')).toBe(true);
  });

  it('keeps each partition apart, and a new offset starts anew', () => {
    const reads = new ReadAgainOnce({ warn: jest.fn() }, 'a message');
    expect(reads.readAgain(null, at('7', 0), 'came broken', 'handled')).toBe(true);
    expect(reads.readAgain(null, at('7', 1), 'came broken', 'handled')).toBe(true);
    expect(reads.readAgain(null, at('8', 0), 'came broken', 'handled')).toBe(true);
    expect(reads.readAgain(null, at('8', 0), 'came broken', 'handled')).toBe(false);
    expect(reads.readAgain(null, at('7', 1), 'came broken', 'handled')).toBe(false);
  });

  it('seeks the consumer to a message that lost its value, and only to such a message', () => {
    const seek = jest.fn();
    const reads = new ReadAgainOnce({ warn: jest.fn() }, 'a message');
    expect(
      reads.readAgainIfLost({ seek }, 'label.events', 3, kafkaMessage('5', {}, '{"a":1}')),
    ).toBe(false);
    expect(
      reads.readAgainIfLost({ seek }, 'label.events', 3, kafkaMessage('6', {}, '\u0004&x')),
    ).toBe(true);
    expect(seek).toHaveBeenCalledTimes(1);
    expect(seek).toHaveBeenCalledWith({ topic: 'label.events', partition: 3, offset: '6' });
  });
});
