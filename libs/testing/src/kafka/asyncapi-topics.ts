import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { MokapiTopic } from './mokapi-broker';

/** The generated AsyncAPI document of the bus (`npm run asyncapi`), relative to the repo root. */
export const ASYNCAPI_DOCUMENT = 'docs/asyncapi.yaml';

interface DocumentChannel {
  address: string;
  description?: string;
  'x-consign-kind'?: string;
  bindings?: {
    kafka?: { partitions?: number; topicConfiguration?: { 'retention.ms'?: number } };
  };
}

/** The topics of the test broker, and which of them are reply topics. */
export interface MokapiTopics {
  topics: MokapiTopic[];
  replyTopics: MokapiTopic[];
}

/**
 * The AsyncAPI document transformed for Mokapi: every channel becomes a topic with its partitions
 * and retention, and no message schema at all. Mokapi validates produced values against a
 * channel's schema, and would refuse legitimate messages: Nest's null reply values, the
 * dead-letter copies of invalid messages, and more generally anything our validators accept that
 * a strict reading of the schema would not (the services validate what they consume themselves).
 */
export function mokapiTopicsOf(document: unknown): MokapiTopics {
  const channels = (document as { channels?: Record<string, DocumentChannel> }).channels;
  if (!channels || Object.keys(channels).length === 0) throw new Error('no channels in document');
  const result: MokapiTopics = { topics: [], replyTopics: [] };
  for (const channel of Object.values(channels)) {
    const kafka = channel.bindings?.kafka;
    const topic: MokapiTopic = {
      name: channel.address,
      ...(kafka?.partitions ? { partitions: kafka.partitions } : {}),
      ...(kafka?.topicConfiguration?.['retention.ms'] !== undefined
        ? { retentionMs: kafka.topicConfiguration['retention.ms'] }
        : {}),
    };
    if (channel['x-consign-kind'] === 'reply') result.replyTopics.push(topic);
    else result.topics.push(topic);
  }
  return result;
}

function repoRoot(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no nx.json above ${from}`);
  }
}

/** Every topic of docs/asyncapi.yaml, ready for startMokapiBroker. */
export function consignMokapiTopics(root: string = repoRoot(__dirname)): MokapiTopics {
  return mokapiTopicsOf(parse(readFileSync(join(root, ASYNCAPI_DOCUMENT), 'utf8')));
}
