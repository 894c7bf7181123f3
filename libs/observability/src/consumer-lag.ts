/** A consumer group's committed offset on one partition ("-1": nothing committed yet). */
export interface CommittedOffset {
  partition: number;
  offset: string;
}

/** A partition's offsets as the broker reports them: `high` is the next offset to be written. */
export interface PartitionEnds {
  partition: number;
  high: string;
  low: string;
}

export interface LagSample {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

/**
 * Messages a group has still to consume on each partition: high watermark minus the committed
 * offset. A group with nothing committed starts from the beginning (our consumers subscribe
 * `fromBeginning`), so its lag is everything the partition retains (high - low).
 */
export function consumerLag(
  committed: readonly CommittedOffset[],
  ends: readonly PartitionEnds[],
): { partition: number; lag: number }[] {
  const byPartition = new Map(committed.map((c) => [c.partition, Number(c.offset)]));
  return ends
    .map(({ partition, high, low }) => {
      const end = Number(high);
      const at = byPartition.get(partition);
      const from = at === undefined || at < 0 ? Number(low) : at;
      return { partition, lag: Math.max(0, end - from) };
    })
    .sort((a, b) => a.partition - b.partition);
}

/** The groups of this process and the topics each consumes, as their consumers start. */
export class ConsumerGroups {
  private readonly groups = new Map<string, Set<string>>();

  add(group: string, topics: Iterable<string>): void {
    const known = this.groups.get(group) ?? new Set<string>();
    for (const topic of topics) known.add(topic);
    this.groups.set(group, known);
  }

  entries(): [string, string[]][] {
    return [...this.groups].map(([group, topics]) => [group, [...topics].sort()]);
  }
}

/** What the metrics read the lag gauge from: the consumer-lag probe (bus), once Kafka is in use. */
export interface LagProbe {
  read(): Promise<LagSample[]>;
}
