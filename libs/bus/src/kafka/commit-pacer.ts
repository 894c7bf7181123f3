import { Logger } from '@nestjs/common';
import type { Consumer } from 'kafkajs';
import { nextOffset } from '../commit-ledger';

/** The next offset to read of one partition: what a commit stores. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Commits a consumer's offsets at most once per `intervalMs` (BUS_COMMIT_INTERVAL_MS), instead of
 * after every fetched batch as kafkajs' auto-commit does, and each partition in a request of its
 * own. The first commit after a quiet spell goes at once; what is handled meanwhile waits for the
 * next one, which carries only the latest offset of each partition.
 *
 * Why: a committed offset only shortens the replay after a crash or a rebalance, and every
 * consumer here deduplicates what it reads again (commands: the command record; events: the
 * inbox; carrier checkpoints: their natural key; replies: no waiting request), so a commit per
 * message buys nothing but broker load. And the Mokapi test broker (0.52) crashes on busy commits:
 * for every partition of an OffsetCommit it writes the group's offset map and starts a goroutine
 * that reads that map without a lock ("fatal error: concurrent map read and map write" in
 * processMetricsOffsetCommit). Two partitions of one topic in one request are written
 * microseconds apart, while the first one's goroutine may run on another core: one partition per
 * request, and few requests, remove nearly every such window.
 */
export class CommitPacer {
  private pending = new Map<string, PartitionOffset>();
  private lastCommitAt = 0;
  private timer?: NodeJS.Timeout;
  private committing?: Promise<void>;
  private released = false;
  /** Handler calls not settled yet (see track). */
  private readonly handling = new Set<Promise<unknown>>();
  /** Run on release: e.g. the consumer event listeners paceCommits added. */
  readonly onRelease: (() => void)[] = [];

  constructor(
    private readonly consumer: Pick<Consumer, 'commitOffsets'>,
    readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  /** The message at `offset` is handled: the next commit of its partition may pass it. */
  handled(topic: string, partition: number, offset: string): void {
    this.offer([{ topic, partition, offset: nextOffset(offset) }]);
  }

  /** Offsets (next to read) that may be committed; a later offer of a partition replaces it. */
  offer(offsets: readonly PartitionOffset[]): void {
    if (this.released) return;
    for (const offset of offsets) this.pending.set(`${offset.topic}:${offset.partition}`, offset);
    this.schedule();
  }

  /** A handler call in progress: drain() waits for it before its last commit. */
  track<T>(handling: Promise<T>): Promise<T> {
    this.handling.add(handling);
    const settled = (): void => {
      this.handling.delete(handling);
    };
    handling.then(settled, settled);
    return handling;
  }

  /** Resolves once no tracked handler call is in progress. */
  async idle(): Promise<void> {
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
  }

  /** The partitions were (or are about to be) reassigned: their offsets are not ours to commit. */
  forget(): void {
    this.pending.clear();
  }

  /** Commits what is pending now (shutdown, rebalance, a handler's failure); resolves when done. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.committing) await this.committing;
    if (this.pending.size > 0) await this.commitPending();
  }

  /** Stops committing: after its last flush, a consumer that leaves commits nothing more. */
  release(): void {
    this.released = true;
    for (const cleanup of this.onRelease.splice(0)) cleanup();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private schedule(): void {
    if (this.timer || this.committing || this.pending.size === 0) return;
    const waitMs = Math.max(0, this.lastCommitAt + this.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.commitPending();
    }, waitMs);
    this.timer.unref();
  }

  private commitPending(): Promise<void> {
    const offsets = [...this.pending.values()];
    this.pending = new Map();
    this.lastCommitAt = Date.now();
    const committing = (async () => {
      for (const offset of offsets) {
        try {
          await this.consumer.commitOffsets([offset]);
        } catch (error: unknown) {
          // A later commit of the partition carries it; until then a crash replays a little more.
          this.logger.warn(
            `committing ${offset.topic}[${offset.partition}] at ${offset.offset}: ${messageOf(error)}`,
          );
        }
      }
    })();
    this.committing = committing.finally(() => {
      this.committing = undefined;
      this.schedule();
    });
    return this.committing;
  }
}

const pacers = new Map<Consumer, PacedConsumer>();

/**
 * Paces the commits of a consumer run with `autoCommit: false` (see CommitPacer); forgets what is
 * pending whenever its assignment changes. Replaces an earlier pacer of the same consumer.
 */
export function paceCommits(consumer: Consumer, intervalMs: number, name: string): CommitPacer {
  pacers.get(consumer)?.pacer.release();
  const pacer = new CommitPacer(consumer, intervalMs, new Logger(`CommitPacer:${name}`));
  // kafkajs' auto-commit commits what was handled before it rejoins; so does this, best effort
  // (the old generation's commit may be refused), then the new assignment starts afresh.
  const paced: PacedConsumer = { pacer, topics: [] };
  pacer.onRelease.push(
    consumer.on(consumer.events.REBALANCING, () => {
      void pacer.flush().finally(() => pacer.forget());
    }),
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      pacer.forget();
      paced.topics = Object.keys(payload.memberAssignment);
    }),
  );
  pacers.set(consumer, paced);
  return pacer;
}

interface PacedConsumer {
  pacer: CommitPacer;
  /** The topics of its current assignment. */
  topics: string[];
}

/**
 * Before a paced consumer leaves (shutdown; kafkajs' stop and disconnect leave the group, after
 * which nothing can be committed): stops fetching, waits for the handler calls in progress,
 * commits what was handled, and stops pacing. A message kafkajs had already fetched and hands
 * over meanwhile is handled and read again by the partition's next owner (deduplicated).
 */
export async function drainPacedCommits(consumer: Consumer): Promise<void> {
  const paced = pacers.get(consumer);
  if (!paced) return;
  pacers.delete(consumer);
  try {
    consumer.pause(paced.topics.map((topic) => ({ topic })));
  } catch {
    // Not running (crashed, restarting): nothing is being fetched.
  }
  await paced.pacer.idle();
  await paced.pacer.flush();
  paced.pacer.release();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
