import { Kafka, logLevel } from 'kafkajs';
import {
  CarrierCheckpointEvent,
  CarrierTopic,
  validateContract,
  validationMessage,
} from '@consign/contracts';
import { kafkaJsConfig } from '@consign/bus';
import { loadConfig } from '@consign/config';
import { runMain } from '@consign/platform';

const USAGE = `Usage: npm run carrier-event -- --carrier <code> (--label <id> | --tracking-number <n>)
         --code <event code> --text <event text> [--location <place>] [--time <ISO 8601 with zone>]
         [--allocate <tracking number>] [--url <gateway URL> --key <carrier credential>]

Publishes one carrier checkpoint event, as a carrier adapter would:
  with --url and --key (or CARRIER_KEY): to the gateway's carrier webhook
      (POST <url>/2026-05/cloud/carrier/<code>/events), and prints what became of it;
  otherwise to Kafka (KAFKA_BROKERS), on ${CarrierTopic.Checkpoint}, keyed by the label id or
      tracking number.
--time defaults to now (UTC); --allocate also allocates that tracking number to the label.

Example:
  npm run carrier-event -- --carrier DHL --label 12 --code OK --text Delivered --location "Berlin, DE"`;

class UsageError extends Error {}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  if (index < 0) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--'))
    throw new UsageError(`--${name} needs a value`);
  return value;
}

/** The event the options describe, validated against the contract. */
export function eventFromArgs(args: string[], now: Date = new Date()): CarrierCheckpointEvent {
  const label = option(args, 'label');
  const allocate = option(args, 'allocate');
  const carrier = option(args, 'carrier');
  const plain = {
    carrier_code: carrier,
    ...(label !== undefined ? { label_id: Number(label) } : {}),
    ...(option(args, 'tracking-number') !== undefined
      ? { tracking_number: option(args, 'tracking-number') }
      : {}),
    event_code: option(args, 'code'),
    description: option(args, 'text'),
    location: option(args, 'location') ?? null,
    event_time: option(args, 'time') ?? now.toISOString(),
    ...(allocate !== undefined
      ? { allocation: { tracking_courier: carrier, tracking_number: allocate } }
      : {}),
  };
  const result = validateContract(CarrierCheckpointEvent, plain);
  if (!result.ok) throw new UsageError(validationMessage(result.errors));
  return result.value;
}

async function viaWebhook(url: string, key: string, event: CarrierCheckpointEvent): Promise<void> {
  const { carrier_code: carrier, ...rest } = event;
  const response = await fetch(
    `${url.replace(/\/$/, '')}/2026-05/cloud/carrier/${encodeURIComponent(carrier)}/events`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ events: [rest] }),
    },
  );
  const text = await response.text();
  process.stdout.write(`${response.status} ${text}\n`);
  if (!response.ok) process.exitCode = 1;
}

async function viaKafka(brokers: string[], event: CarrierCheckpointEvent): Promise<void> {
  const settings = kafkaJsConfig({ clientId: 'consign-carrier-cli', groupId: 'unused', brokers });
  const kafka = new Kafka({ ...settings.client, logLevel: logLevel.ERROR });
  const producer = kafka.producer(settings.producer);
  await producer.connect();
  try {
    const key = String(event.label_id ?? event.tracking_number);
    await producer.send({
      topic: CarrierTopic.Checkpoint,
      messages: [{ key, value: JSON.stringify(event) }],
    });
    process.stdout.write(`published to ${CarrierTopic.Checkpoint} (key ${key})\n`);
  } finally {
    await producer.disconnect();
  }
}

/** A carrier adapter author's tool: publish one test checkpoint event. */
if (require.main === module) {
  runMain('carrier-event', async () => {
    const args = process.argv.slice(2);
    try {
      if (args.length === 0 || args.includes('--help')) throw new UsageError('');
      const event = eventFromArgs(args);
      const url = option(args, 'url');
      if (url) {
        const key = option(args, 'key') ?? process.env.CARRIER_KEY;
        if (!key) throw new UsageError('--key (or CARRIER_KEY) is required with --url');
        await viaWebhook(url, key, event);
        return;
      }
      const config = loadConfig();
      if (!config.KAFKA_BROKERS) throw new UsageError('set KAFKA_BROKERS, or give --url and --key');
      await viaKafka(config.kafkaBrokers, event);
    } catch (error: unknown) {
      if (!(error instanceof UsageError)) throw error;
      process.stderr.write(
        `${error.message ? `carrier-event: ${error.message}\n\n` : ''}${USAGE}\n`,
      );
      process.exitCode = 64;
    }
  });
}
