import { CommitLedger, nextOffset } from './commit-ledger';

describe('CommitLedger', () => {
  it('commits a partition only past the persisted run from its start, in fetch order', () => {
    const ledger = new CommitLedger();
    const a = ledger.add(0, '0', '99');
    const b = ledger.add(0, '100', '199');
    const c = ledger.add(0, '200', '299');
    // Writes finishing out of order: nothing is committable until the first one is persisted.
    expect(ledger.persisted(c)).toBeUndefined();
    expect(ledger.persisted(b)).toBeUndefined();
    expect(ledger.pending).toBe(3);
    expect(ledger.persisted(a)).toBe('300');
    expect(ledger.pending).toBe(0);
  });

  it('keeps partitions apart', () => {
    const ledger = new CommitLedger();
    const p0 = ledger.add(0, '10', '19');
    const p1 = ledger.add(1, '5', '5');
    const p0next = ledger.add(0, '20', '29');
    expect(ledger.persisted(p1)).toBe('6');
    expect(ledger.persisted(p0next)).toBeUndefined();
    expect(ledger.persisted(p0)).toBe('30');
  });

  it('a failed write drops its batch and the later ones of its partition, and says where to re-read', () => {
    const ledger = new CommitLedger();
    const a = ledger.add(0, '0', '99');
    const b = ledger.add(0, '100', '199');
    const c = ledger.add(0, '200', '299');
    const other = ledger.add(1, '0', '9');
    expect(ledger.failed(b)).toBe('100');
    // The later batch's write finishing does not count: b is not persisted.
    expect(ledger.persisted(c)).toBeUndefined();
    expect(ledger.failed(c)).toBeUndefined();
    // The earlier one still commits, up to the failure; the other partition is untouched.
    expect(ledger.persisted(a)).toBe('100');
    expect(ledger.persisted(other)).toBe('10');
    // Re-read from 100: the new batches count again.
    const again = ledger.add(0, '100', '299');
    expect(ledger.persisted(again)).toBe('300');
  });

  it('an earlier failure after a later one moves the re-read back', () => {
    const ledger = new CommitLedger();
    const a = ledger.add(0, '0', '99');
    const b = ledger.add(0, '100', '199');
    expect(ledger.failed(b)).toBe('100');
    expect(ledger.failed(a)).toBe('0');
    expect(ledger.pending).toBe(0);
  });

  it('after a rebalance, writes in flight finish but commit nothing', () => {
    const ledger = new CommitLedger();
    const a = ledger.add(0, '0', '99');
    const b = ledger.add(1, '0', '99');
    ledger.reset();
    expect(ledger.persisted(a)).toBeUndefined();
    expect(ledger.failed(b)).toBeUndefined();
    const fresh = ledger.add(0, '50', '149');
    expect(ledger.persisted(fresh)).toBe('150');
  });

  it('counts offsets as 64-bit integers', () => {
    expect(nextOffset('9007199254740993')).toBe('9007199254740994');
  });
});
