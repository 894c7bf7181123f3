import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../openapi/plugin-metadata';
import { TopicSizing } from './asyncapi-document';
import { checkedInSizing, generateAsyncApiFiles } from './generated-files';
import { CREATE_TOPICS_SH } from './provisioning';

export * from './asyncapi-document';
export * from './generated-files';
export * from './provisioning';

const FLAGS: Record<string, keyof TopicSizing> = {
  '--reply-partitions': 'replyPartitions',
  '--command-partitions': 'commandPartitions',
  '--event-partitions': 'eventPartitions',
  '--checkpoint-partitions': 'checkpointPartitions',
  '--dead-letter-partitions': 'deadLetterPartitions',
};

/** `--reply-partitions=12` etc. over the sizing the checked-in document records. */
export function parseSizing(args: string[], base: TopicSizing): TopicSizing {
  const sizing = { ...base };
  for (const arg of args) {
    const [flag, value] = arg.split('=', 2);
    const key = FLAGS[flag];
    if (!key || value === undefined || !/^[1-9]\d*$/.test(value)) {
      throw new Error(
        `unknown or invalid argument ${arg}; use ${Object.keys(FLAGS).join('=N, ')}=N`,
      );
    }
    sizing[key] = Number(value);
  }
  return sizing;
}

/**
 * `npm run asyncapi [-- --reply-partitions=N …]`: regenerates docs/asyncapi.yaml from the
 * contracts, and from it the Strimzi KafkaTopics and the compose topic script. Sizing flags not
 * given keep the values the checked-in document records.
 */
function main(): void {
  const root = findRepoRoot(__dirname);
  const sizing = parseSizing(process.argv.slice(2), checkedInSizing(root));
  const { files } = generateAsyncApiFiles(root, sizing);
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, path);
    const same = existsSync(file) && readFileSync(file, 'utf8') === text;
    if (!same) {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    if (path === CREATE_TOPICS_SH) chmodSync(file, 0o755);
    process.stdout.write(`${path} ${same ? 'is up to date' : 'written'}\n`);
  }
}

if (require.main === module) {
  try {
    main();
  } catch (error: unknown) {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  }
}
