import { Logger } from '@nestjs/common';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { ConsumerGroups, LagProbe, LagSample, consumerLag } from '@consign/observability';
import { kafkaJsConfig } from './kafka-options';

/**
 * Reads the lag of this process's consumer groups from the broker (kafkajs admin: the group's
 * committed offsets and each topic's watermarks), on scrape, with a short cache so that frequent
 * scrapes (or several scrapers) do not hammer the broker.
 */
export class ConsumerLagProbe implements LagProbe {
  private readonly logger = new Logger('ConsumerLag');
  private admin?: Promise<Admin>;
  private failing = false;
  private cached?: { at: number; samples: Promise<LagSample[]> };

  constructor(
    private readonly brokers: string[],
    private readonly clientId: string,
    private readonly groups: ConsumerGroups,
    private readonly options: { cacheMs?: number; timeoutMs?: number } = {},
  ) {}

  /** The current samples; an empty list when the broker cannot be asked (the gauge is omitted). */
  read(now = Date.now()): Promise<LagSample[]> {
    const cacheMs = this.options.cacheMs ?? 5_000;
    if (this.cached && now - this.cached.at < cacheMs) return this.cached.samples;
    const samples = this.fetch().then(
      (read) => {
        if (this.failing) this.logger.log('consumer lag available again');
        this.failing = false;
        return read;
      },
      (error: unknown) => {
        // Once per outage, not once per scrape.
        const message = `consumer lag unavailable: ${error instanceof Error ? error.message : String(error)}`;
        if (this.failing) this.logger.debug(message);
        else this.logger.warn(message);
        this.failing = true;
        return [];
      },
    );
    this.cached = { at: now, samples };
    return samples;
  }

  async close(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    if (admin) await (await admin.catch(() => undefined))?.disconnect();
  }

  private connect(): Promise<Admin> {
    if (!this.admin) {
      const settings = kafkaJsConfig({
        clientId: this.clientId,
        groupId: 'unused',
        brokers: this.brokers,
      });
      const admin = new Kafka({
        ...settings.client,
        // One try: a scrape should not wait ~10 s of retries for a broker that is down.
        retry: { retries: 0 },
        // Its failures are reported once by read(), not as a kafkajs error on every scrape.
        logLevel: logLevel.NOTHING,
      }).admin();
      this.admin = admin.connect().then(
        () => admin,
        (error: unknown) => {
          this.admin = undefined;
          throw error;
        },
      );
    }
    return this.admin;
  }

  private async fetch(): Promise<LagSample[]> {
    const groups = this.groups.entries();
    if (groups.length === 0) return [];
    const timeoutMs = this.options.timeoutMs ?? 3_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.fetchFrom(await this.connect(), groups), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetchFrom(admin: Admin, groups: [string, string[]][]): Promise<LagSample[]> {
    const topics = [...new Set(groups.flatMap(([, t]) => t))];
    const ends = new Map(
      await Promise.all(
        topics.map(async (topic) => [topic, await admin.fetchTopicOffsets(topic)] as const),
      ),
    );
    const samples: LagSample[] = [];
    for (const [group, groupTopics] of groups) {
      const committed = await admin.fetchOffsets({ groupId: group, topics: groupTopics });
      for (const { topic, partitions } of committed) {
        for (const { partition, lag } of consumerLag(partitions, ends.get(topic) ?? []))
          samples.push({ group, topic, partition, lag });
      }
    }
    return samples;
  }
}
