/** One fetched batch of a partition handed to a write: offsets as kafkajs gives them (strings). */
export interface LedgerBatch {
  readonly partition: number;
  readonly firstOffset: string;
  readonly lastOffset: string;
  /** Set once its write committed. */
  persisted: boolean;
}

/**
 * Which offsets a pipelined consumer may commit. Batches are entered in fetch order per partition
 * and their writes may finish in any order (or fail); the offset committed for a partition is
 * always just past the longest run of persisted batches from where the partition started, so
 * everything below a committed offset is persisted and a crash replays only what is above it.
 *
 * A failed write drops its batch and every later batch of its partition (their writes may still
 * finish: they no longer count) and tells where to re-read from. A rebalance forgets every
 * partition: writes in flight finish, but their offsets are never committed by this ledger (the
 * partitions' next owners, maybe this member again, re-read from the last committed offset; the
 * writes are idempotent).
 */
export class CommitLedger {
  private partitions = new Map<number, LedgerBatch[]>();

  /** Enters a batch whose write is about to start. */
  add(partition: number, firstOffset: string, lastOffset: string): LedgerBatch {
    const batch: LedgerBatch = { partition, firstOffset, lastOffset, persisted: false };
    const queue = this.partitions.get(partition);
    if (queue) queue.push(batch);
    else this.partitions.set(partition, [batch]);
    return batch;
  }

  /**
   * The batch's write committed. Answers the offset to commit now for its partition (the next
   * offset to read after the persisted run), or undefined when nothing new may be committed: an
   * earlier batch is still being written, or the batch no longer counts (dropped, rebalanced).
   */
  persisted(batch: LedgerBatch): string | undefined {
    const queue = this.partitions.get(batch.partition);
    if (!queue?.includes(batch)) return undefined;
    batch.persisted = true;
    let last: LedgerBatch | undefined;
    while (queue.length > 0 && queue[0].persisted) last = queue.shift();
    if (queue.length === 0) this.partitions.delete(batch.partition);
    return last ? nextOffset(last.lastOffset) : undefined;
  }

  /**
   * The batch's write failed. Drops it and every later batch of its partition; answers the offset
   * to re-read the partition from (the batch's first), or undefined when the batch no longer
   * counted (an earlier failure or a rebalance already dropped it).
   */
  failed(batch: LedgerBatch): string | undefined {
    const queue = this.partitions.get(batch.partition);
    const index = queue?.indexOf(batch) ?? -1;
    if (!queue || index < 0) return undefined;
    queue.splice(index);
    if (queue.length === 0) this.partitions.delete(batch.partition);
    return batch.firstOffset;
  }

  /** Partitions were (or are about to be) reassigned: nothing entered so far is committed. */
  reset(): void {
    this.partitions = new Map();
  }

  /** Batches entered and not yet committable, over every partition. */
  get pending(): number {
    let count = 0;
    for (const queue of this.partitions.values()) count += queue.length;
    return count;
  }
}

/** The offset after `offset` (offsets are int64 decimal strings). */
export function nextOffset(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}
