import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import {
  ApiClient,
  Deployment,
  REPO_ROOT,
  aLabel,
  aLabelAddress,
  eventually,
  startDistributed,
} from '@consign/testing';
import { deliveredTracking, local } from './carrier-tracking';

const run = promisify(execFile);

/** A message of docs/asyncapi.yaml, as far as this test reads it. */
interface AsyncApiMessage {
  payload: { $ref: string };
  headers: { properties: Record<string, unknown> };
  bindings: { kafka: { key: { type: string; description: string } } };
}
interface AsyncApiDoc {
  channels: Record<string, { messages: Record<string, { $ref: string }> }>;
  components: { messages: Record<string, AsyncApiMessage>; schemas: Record<string, unknown> };
}
interface KcatRecord {
  topic: string;
  key: string | null;
  payload: string | null;
  headers?: string[];
}
interface Tracking {
  tracking_courier: string | null;
  tracking_number: string | null;
  outbound_time: string | null;
  delivered_time: string | null;
  checkpoints: {
    local_time: string;
    details: string | null;
    description: string;
    status: string;
  }[];
}

const TOPIC = 'carrier.checkpoint.v1';
const DEAD_LETTERS = `${TOPIC}.dlt`;
const KCAT = spawnSync('kcat', ['-V'], { encoding: 'utf8' }).status === 0;

/** The channel's message, its payload schema compiled against the document's own components. */
function documentedMessage() {
  const doc = parse(readFileSync(join(REPO_ROOT, 'docs/asyncapi.yaml'), 'utf8')) as AsyncApiDoc;
  const [ref] = Object.values(doc.channels[TOPIC].messages);
  const message = doc.components.messages[ref.$ref.split('/').pop()!];
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile({
    $ref: message.payload.$ref,
    components: { schemas: doc.components.schemas },
  });
  return { message, validate };
}

/** Publishes with kcat, one message a line: `key<TAB>json`, with the given headers on each. */
async function kcatProduce(
  brokers: string,
  messages: { key: string; value: string }[],
  headers: Record<string, string>,
): Promise<void> {
  const args = ['-P', '-b', brokers, '-t', TOPIC, '-K', '\t', '-z', 'none'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  const child = execFile('kcat', args, { timeout: 30_000 });
  const exited = new Promise<void>((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`kcat -P exited with ${code}`)),
    ),
  );
  child.stdin!.end(messages.map((m) => `${m.key}\t${m.value}\n`).join(''));
  await exited;
}

/** Every message on a topic, read from the beginning with kcat (no consumer group). */
async function kcatConsume(brokers: string, topic: string): Promise<KcatRecord[]> {
  const { stdout } = await run(
    'kcat',
    ['-C', '-b', brokers, '-t', topic, '-o', 'beginning', '-e', '-q', '-J'],
    { timeout: 30_000 },
  );
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as KcatRecord);
}

/** kcat -J prints headers as a flat [name, value, name, value…] list. */
const headersOf = (record: KcatRecord): Record<string, string> => {
  const list = record.headers ?? [];
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) headers[list[i]] = list[i + 1];
  return headers;
};

/** Royal Mail, which the sandbox leaves alone: only this test reports the label's events. */
const QUIET = {
  service: { service_code: 'RM-TRACKED48' },
  shipper_address: aLabelAddress({ city: 'Leeds' }),
};

/**
 * docs/asyncapi.yaml, proven with a Kafka client that is not ours: kcat (librdkafka, Debian
 * package `kcat`) publishes carrier checkpoint events exactly as the document describes them
 * (payload valid against its schema, keyed as its Kafka binding says, its headers) to the test
 * broker, and they show in the label's tracking; one the document refuses lands on the dead
 * letters, where kcat reads it back.
 */
describe('carrier checkpoint events published with kcat (distributed)', () => {
  let deployment: Deployment;
  let api: ApiClient;
  let brokers: string;
  const { message, validate } = documentedMessage();

  beforeAll(async () => {
    if (!KCAT)
      throw new Error(
        'kcat not found: install the Debian package `kcat` (apt-get install kcat; .ci/run does it when missing)',
      );
    deployment = await startDistributed({
      // The sandbox plays these carriers only: Royal Mail's events are the test's.
      env: { CARRIER_SANDBOX_CARRIERS: 'DHL,UPS,USPS,DPD' },
    });
    api = deployment.client;
    brokers = deployment.busEnv!.KAFKA_BROKERS;
  }, 120_000);

  afterAll(async () => {
    await deployment?.stop();
  });

  const createLabel = async () => {
    const created = await api.post<number>('/2026-05/cloud/label', aLabel(QUIET));
    expect(created.body).toMatchObject({ code: 200, message: 'success' });
    return created.body.data!;
  };
  const trackingOf = async (id: number) =>
    (await api.get<Tracking>(`/2026-05/cloud/label/tracking/${id}`)).body.data!;

  it('reads the message the document describes: a JSON payload, a string key, x-correlation-id', () => {
    expect(message.bindings.kafka.key.type).toBe('string');
    expect(message.bindings.kafka.key.description).toMatch(/label id, else tracking number/);
    expect(Object.keys(message.headers.properties)).toContain('x-correlation-id');
  });

  it('records the events in the label tracking: allocation, checkpoints, delivery', async () => {
    const id = await createLabel();
    const number = `RM${id}KCAT`;
    // Keyed by the label id, or without one by the tracking number, as the key binding says.
    const events = [
      {
        key: String(id),
        event: {
          carrier_code: 'RM',
          label_id: id,
          event_code: 'E00',
          description: 'Shipment information received',
          event_time: local(0, 2),
          allocation: { tracking_courier: 'RM', tracking_number: number },
        },
      },
      {
        key: number,
        event: {
          carrier_code: 'RM',
          tracking_number: number,
          event_code: 'E10',
          description: 'Picked up by courier',
          location: 'Lisboa, PT',
          event_time: local(600, 1),
        },
      },
      {
        key: number,
        event: {
          carrier_code: 'RM',
          tracking_number: number,
          event_code: 'E80',
          description: 'Delivered to the front door',
          location: 'Porto, PT',
          event_time: local(3000, 1),
        },
      },
    ];
    for (const { event } of events)
      expect({ event, valid: validate(event), errors: validate.errors ?? null }).toEqual({
        event,
        valid: true,
        errors: null,
      });

    await kcatProduce(
      brokers,
      events.map(({ key, event }) => ({ key, value: JSON.stringify(event) })),
      { 'x-correlation-id': `kcat-${randomUUID()}` },
    );

    const tracking = await eventually(
      () => trackingOf(id),
      (t) => t.checkpoints.length === 4 && t.delivered_time !== null,
      { timeoutMs: 30_000 },
    );
    expect(tracking).toEqual(deliveredTracking(number));
  });

  it('parks an event the document refuses on carrier.checkpoint.v1.dlt, changing nothing', async () => {
    const id = await createLabel();
    const before = await trackingOf(id);
    const correlation = `kcat-malformed-${randomUUID()}`;
    // No event_code: required by the payload schema.
    const malformed = {
      carrier_code: 'RM',
      label_id: id,
      description: 'Arrived at sort facility',
      event_time: local(60, 0).replace('+00:00', 'Z'),
    };
    expect(validate(malformed)).toBe(false);
    expect(validate.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ params: { missingProperty: 'event_code' } }),
      ]),
    );
    const value = JSON.stringify(malformed);
    await kcatProduce(brokers, [{ key: String(id), value }], { 'x-correlation-id': correlation });

    const letters = await eventually(
      async () => (await kcatConsume(brokers, DEAD_LETTERS)).filter((r) => r.key === String(id)),
      (found) => found.length > 0,
      { timeoutMs: 30_000 },
    );
    expect(letters).toHaveLength(1);
    expect(JSON.parse(letters[0].payload!)).toEqual(malformed);
    const headers = headersOf(letters[0]);
    expect(headers).toMatchObject({
      'x-correlation-id': correlation,
      'x-dlt-consumer': 'label-tracking',
      'x-dlt-attempts': '1',
    });
    expect(headers['x-dlt-error']).toContain('event_code');
    expect(await trackingOf(id)).toEqual(before);
  });
});
