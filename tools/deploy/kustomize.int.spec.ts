import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { ADAPTER_TOPICS, COMMAND_TOPICS, EVENT_TOPICS, replyTopicOf } from '@consign/contracts';
import { loadConfig } from '@consign/config';
import {
  APP_PORT,
  DISTRIBUTED_APPS,
  LIVENESS_PATH,
  READINESS_PATH,
  REPO_ROOT,
  appCommand,
  appEntryExists,
  appOfCommand,
} from './topology';
import { STRIMZI_SCHEMAS } from './strimzi-schemas';
import { K8sObject, KUBECTL, renderOverlay } from './kustomize-render';

interface HttpProbe {
  httpGet?: { path: string; port: number | string };
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  startupProbe?: HttpProbe;
  livenessProbe?: HttpProbe & { periodSeconds?: number };
  readinessProbe?: HttpProbe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: PodSpec;
}
interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: PodTemplate;
}

/** Built-in kinds and their kubernetes-models classes (JSON Schemas of the Kubernetes API). */
const BUILT_IN_MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
};

/** What production's externally managed Secret must hold (k8s/overlays/prod/kustomization.yaml). */
const EXTERNAL_SECRETS: Record<string, Record<string, string[]>> = {
  prod: { 'consign-secrets': ['DATABASE_URL', 'BOOTSTRAP_API_KEY', 'BOOTSTRAP_ADMIN_KEY'] },
};

const OVERLAYS = {
  // Development brings its own PostgreSQL (a StatefulSet and its Service).
  dev: {
    namespace: 'consign-dev',
    apps: [...DISTRIBUTED_APPS],
    kafkaNodes: 1,
    postgres: 'consign-postgres',
  },
  // The carrier sandbox is a development aid: production has real carriers, and its own database.
  prod: {
    namespace: 'consign',
    apps: DISTRIBUTED_APPS.filter((app) => app !== 'carrier-sandbox'),
    kafkaNodes: 3,
    postgres: undefined,
  },
} as const;
type Overlay = keyof typeof OVERLAYS;

/**
 * kustomize wraps a long Secret value's base64 over several lines; the API server's decoder (Go's
 * encoding/base64) skips line breaks, the schema's `byte` format does not: join them first.
 */
function asTheApiServerDecodes(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(
    Object.entries(object.data).map(([key, value]) => [key, value.replace(/[\r\n]/g, '')]),
  );
  return { ...object, data };
}

/** The Secret a Consign workload reads DATABASE_URL from. */
function podSecretName(workload: K8sObject): string {
  const container = (workload.spec as unknown as { template: PodTemplate }).template.spec
    .containers[0];
  const ref = container.env?.find((v) => v.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
  return ref!.name;
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function strimziValidators(): Record<string, ValidateFunction> {
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  return Object.fromEntries(
    Object.entries(STRIMZI_SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)]),
  );
}

/** The real topic names of today's contracts: every command, its reply, event and adapter topic. */
function contractTopics(): string[] {
  return [
    ...COMMAND_TOPICS,
    ...COMMAND_TOPICS.map(replyTopicOf),
    ...EVENT_TOPICS,
    ...ADAPTER_TOPICS,
  ].sort();
}

const describeWithKubectl = KUBECTL ? describe : describe.skip;
if (!KUBECTL)
  process.stderr.write(
    'k8s overlays are not rendered: no kubectl (Debian package kubectl) on this machine\n',
  );

describeWithKubectl.each(Object.keys(OVERLAYS) as Overlay[])('k8s overlay %s', (overlay) => {
  const expected = OVERLAYS[overlay];
  const objects = renderOverlay(overlay);
  const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
  const named = (kind: string, name: string) =>
    objects.find((object) => object.kind === kind && object.metadata.name === name);
  const deployments = ofKind('Deployment');
  const deploymentSpec = (object: K8sObject) => object.spec as unknown as DeploymentSpec;
  /** The workloads running the Consign image; every pod workload also counts the StatefulSets. */
  const workloads = [...deployments, ...ofKind('Job')];
  const podWorkloads = [...workloads, ...ofKind('StatefulSet')];
  const podSpecOf = (object: K8sObject) =>
    (object.spec as unknown as { template: PodTemplate }).template.spec;
  const kafka = ofKind('Kafka')[0];
  const nodePools = ofKind('KafkaNodePool');
  const topics = ofKind('KafkaTopic');
  /** The fewest pods a Deployment runs: its autoscaler's minimum, or its replicas. */
  const minimumReplicas = (deployment: K8sObject): number => {
    const autoscaler = ofKind('HorizontalPodAutoscaler').find(
      (a) =>
        (a.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name ===
        deployment.metadata.name,
    );
    return autoscaler
      ? (autoscaler.spec as { minReplicas: number }).minReplicas
      : deploymentSpec(deployment).replicas;
  };
  const kafkaConfig = () =>
    (kafka.spec as { kafka: { config: Record<string, unknown> } }).kafka.config;
  /** A topic's partitions, replicas and min ISR: its own, or the cluster's defaults. */
  const topicSettings = (topic: K8sObject) => {
    const spec = topic.spec as {
      partitions?: number;
      replicas?: number;
      config?: Record<string, unknown>;
    };
    const defaults = kafkaConfig();
    return {
      partitions: spec.partitions ?? Number(defaults['num.partitions'] ?? 1),
      replicas: spec.replicas ?? Number(defaults['default.replication.factor'] ?? 1),
      minInSync: Number(
        spec.config?.['min.insync.replicas'] ?? defaults['min.insync.replicas'] ?? 1,
      ),
    };
  };
  const brokers = nodePools
    .filter((pool) => (pool.spec as { roles: string[] }).roles.includes('broker'))
    .reduce((sum, pool) => sum + (pool.spec as { replicas: number }).replicas, 0);

  it('validates every built-in object against the Kubernetes schemas', () => {
    const unknownKinds = objects
      .map((object) => `${object.apiVersion}/${object.kind}`)
      .filter((kind) => !(kind in BUILT_IN_MODELS) && !kind.startsWith('kafka.strimzi.io/'))
      // The Prometheus Operator's kinds: tools/deploy/monitoring.int.spec.ts validates them.
      .filter((kind) => !kind.startsWith('monitoring.coreos.com/'));
    expect(unknownKinds).toEqual([]);
    const invalid: string[] = [];
    for (const object of objects) {
      const Model = BUILT_IN_MODELS[`${object.apiVersion}/${object.kind}`];
      if (!Model) continue;
      try {
        new Model(asTheApiServerDecodes(object) as never).validate();
      } catch (error) {
        invalid.push(`${object.kind}/${object.metadata.name}: ${(error as Error).message}`);
      }
    }
    expect(invalid).toEqual([]);
  });

  it('validates the Strimzi resources against their essential fields', () => {
    const validators = strimziValidators();
    const invalid: string[] = [];
    for (const object of objects.filter((o) => o.apiVersion.startsWith('kafka.strimzi.io/'))) {
      const validate = validators[`${object.apiVersion}/${object.kind}`];
      const data: unknown = object;
      if (!validate) invalid.push(`${object.apiVersion}/${object.kind} has no schema`);
      else if (!validate(data))
        invalid.push(
          `${object.kind}/${object.metadata.name}: ${(validate.errors ?? [])
            .map((e) => `${e.instancePath} ${e.message}`)
            .join(', ')}`,
        );
    }
    expect(invalid).toEqual([]);
  });

  it('the schema checks catch a broken object', () => {
    expect(() =>
      new Deployment({
        metadata: { name: 'x' },
        spec: deploymentSpec({
          ...deployments[0],
          spec: { ...deployments[0].spec, replicas: 'two' },
        } as K8sObject),
      } as never).validate(),
    ).toThrow(/replicas/);
    const validate = strimziValidators()['kafka.strimzi.io/v1beta2/KafkaTopic'];
    expect(validate({ ...topics[0], spec: { ...topics[0].spec, partitions: 0 } })).toBe(false);
  });

  it('puts every object in the overlay namespace', () => {
    expect(objects.filter((o) => o.metadata.namespace !== expected.namespace)).toEqual([]);
  });

  it('has a Deployment per app, running its built entry point from one image', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...expected.apps].sort());
    const images = new Set(workloads.map((w) => podSpecOf(w).containers[0].image));
    expect(images.size).toBe(1);
    expect([...images][0]).toMatch(/^consign:[\w.-]+$/);
    for (const deployment of deployments) {
      const [container, ...others] = podSpecOf(deployment).containers;
      expect(others).toEqual([]);
      expect(container.command).toEqual(appCommand(deployment.metadata.name));
      expect(appEntryExists(deployment.metadata.name)).toBe(true);
    }
  });

  it('probes liveness and readiness on a port each Deployment declares', () => {
    for (const deployment of deployments) {
      const container = podSpecOf(deployment).containers[0];
      const ports = container.ports ?? [];
      const declared = (port: number | string | undefined) =>
        ports.some((p) => p.name === port || p.containerPort === port);
      const probes = {
        name: deployment.metadata.name,
        live: container.livenessProbe?.httpGet?.path,
        ready: container.readinessProbe?.httpGet?.path,
        startup: container.startupProbe?.httpGet?.path,
        declared: [container.livenessProbe, container.readinessProbe, container.startupProbe].every(
          (probe) => declared(probe?.httpGet?.port),
        ),
      };
      expect(probes).toEqual({
        name: deployment.metadata.name,
        live: LIVENESS_PATH,
        ready: READINESS_PATH,
        startup: LIVENESS_PATH,
        declared: true,
      });
      expect(ports.map((p) => p.containerPort)).toEqual([APP_PORT]);
    }
  });

  it('sets resources and a locked-down security context on every workload', () => {
    for (const workload of podWorkloads) {
      const pod = podSpecOf(workload);
      const container = pod.containers[0];
      expect({ name: workload.metadata.name, resources: container.resources }).toEqual({
        name: workload.metadata.name,
        resources: {
          requests: { cpu: expect.any(String), memory: expect.any(String) },
          limits: { cpu: expect.any(String), memory: expect.any(String) },
        },
      });
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: expect.any(Number),
      });
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(container.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
    }
  });

  it('gives every app the time its graceful shutdown may take, which the app paces itself', () => {
    const config = ofKind('ConfigMap').find((map) =>
      map.metadata.name.startsWith('consign-config'),
    );
    const data = (config as unknown as { data: Record<string, string> }).data;
    const shutdown = loadConfig(data);
    const worstCaseSeconds =
      (shutdown.SHUTDOWN_DELAY_MS +
        shutdown.SHUTDOWN_DRAIN_TIMEOUT_MS +
        shutdown.SHUTDOWN_CLOSE_TIMEOUT_MS) /
      1000;
    expect(shutdown.SHUTDOWN_DELAY_MS).toBeGreaterThan(0);
    // A request may wait for its bus reply as long as BUS_TIMEOUT_MS: the drain must allow it.
    expect(shutdown.SHUTDOWN_DRAIN_TIMEOUT_MS).toBeGreaterThanOrEqual(shutdown.BUS_TIMEOUT_MS);
    for (const deployment of deployments) {
      const pod = podSpecOf(deployment);
      // The delay is the app's (readiness fails at once on SIGTERM): no preStop pause on top.
      expect(pod.containers[0].lifecycle?.preStop).toBeUndefined();
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(worstCaseSeconds);
    }
  });

  it('protects every Deployment with exactly one PodDisruptionBudget', () => {
    const budgets = ofKind('PodDisruptionBudget');
    for (const deployment of deployments) {
      const labels = deploymentSpec(deployment).template.metadata.labels;
      const selecting = budgets.filter((budget) =>
        matches(
          (budget.spec as { selector: { matchLabels: Record<string, string> } }).selector
            .matchLabels,
          labels,
        ),
      );
      expect({ name: deployment.metadata.name, budgets: selecting.length }).toEqual({
        name: deployment.metadata.name,
        budgets: 1,
      });
    }
  });

  it('selects existing pods with every Service, on a port they declare', () => {
    const services = ofKind('Service');
    expect(services.map((s) => s.metadata.name).sort()).toEqual(
      [...expected.apps, ...(expected.postgres ? [expected.postgres] : [])].sort(),
    );
    const podOwners = [...deployments, ...ofKind('StatefulSet')];
    for (const service of services) {
      const spec = service.spec as {
        selector: Record<string, string>;
        ports: { targetPort: string | number }[];
      };
      const pods = podOwners.filter((d) =>
        matches(spec.selector, deploymentSpec(d).template.metadata.labels),
      );
      expect({ service: service.metadata.name, pods: pods.length }).toEqual({
        service: service.metadata.name,
        pods: 1,
      });
      const ports = podSpecOf(pods[0]).containers[0].ports ?? [];
      for (const { targetPort } of spec.ports)
        expect(ports.some((p) => p.name === targetPort || p.containerPort === targetPort)).toBe(
          true,
        );
      if (service.metadata.name === expected.postgres) continue;
      expect(service.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(APP_PORT),
        'prometheus.io/path': '/metrics',
      });
    }
  });

  it('exposes only the API and its documentation through the gateway Ingress', () => {
    const ingresses = ofKind('Ingress');
    expect(ingresses.map((i) => i.metadata.name)).toEqual(['api-gateway']);
    const rules = (
      ingresses[0].spec as {
        rules: {
          http: {
            paths: {
              path: string;
              pathType: string;
              backend: { service: { name: string; port: { name: string } } };
            }[];
          };
        }[];
      }
    ).rules;
    const paths = rules.flatMap((rule) => rule.http.paths);
    expect(paths.map((p) => `${p.pathType} ${p.path}`).sort()).toEqual(
      ['Prefix /2025-07', 'Prefix /2026-05', 'Prefix /docs', 'Exact /docs-json'].sort(),
    );
    const service = named('Service', 'api-gateway')!;
    for (const { backend } of paths) {
      expect(backend.service.name).toBe('api-gateway');
      expect((service.spec as { ports: { name: string }[] }).ports.map((p) => p.name)).toContain(
        backend.service.port.name,
      );
    }
  });

  it('autoscales the gateway and label-tracking, targeting existing Deployments', () => {
    const autoscalers = ofKind('HorizontalPodAutoscaler');
    expect(autoscalers.map((a) => a.metadata.name).sort()).toEqual([
      'api-gateway',
      'label-tracking-service',
    ]);
    for (const autoscaler of autoscalers) {
      const spec = autoscaler.spec as {
        scaleTargetRef: { apiVersion: string; kind: string; name: string };
        minReplicas: number;
        maxReplicas: number;
      };
      expect(spec.scaleTargetRef.kind).toBe('Deployment');
      const target = named('Deployment', spec.scaleTargetRef.name);
      expect(target?.apiVersion).toBe(spec.scaleTargetRef.apiVersion);
      expect(spec.minReplicas).toBeLessThanOrEqual(spec.maxReplicas);
      // The autoscaler owns the count: a replicas field would reset it on every apply.
      expect(deploymentSpec(target!).replicas).toBeUndefined();
    }
  });

  it('sizes every reply topic for the most gateway replicas the autoscaler allows', () => {
    const gateway = named('HorizontalPodAutoscaler', 'api-gateway')!;
    const maxGateways = (gateway.spec as { maxReplicas: number }).maxReplicas;
    const replyTopics = topics.filter((t) =>
      String((t.spec as { topicName: string }).topicName).endsWith('.reply'),
    );
    expect(replyTopics.length).toBe(COMMAND_TOPICS.length);
    for (const topic of replyTopics)
      expect(topicSettings(topic).partitions).toBeGreaterThanOrEqual(maxGateways);
  });

  it('resolves every ConfigMap and Secret reference, and the configuration validates', () => {
    const external = EXTERNAL_SECRETS[overlay] ?? {};
    const keysOf = (kind: 'ConfigMap' | 'Secret', name: string): string[] | undefined => {
      const object = named(kind, name);
      if (object) return Object.keys(object.data ?? {});
      return kind === 'Secret' ? external[name] : undefined;
    };
    for (const workload of workloads) {
      const container = podSpecOf(workload).containers[0];
      const env: Record<string, string> = {};
      for (const source of container.envFrom ?? []) {
        expect(source.secretRef).toBeUndefined();
        const configMap = named('ConfigMap', source.configMapRef!.name);
        expect({ workload: workload.metadata.name, configMap: configMap !== undefined }).toEqual({
          workload: workload.metadata.name,
          configMap: true,
        });
        Object.assign(env, configMap!.data);
      }
      for (const variable of container.env ?? []) {
        const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
        if (!ref) {
          env[variable.name] = variable.value ?? '';
          continue;
        }
        const kind = variable.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap';
        expect({ workload: workload.metadata.name, ref, keys: keysOf(kind, ref.name) }).toEqual({
          workload: workload.metadata.name,
          ref,
          keys: expect.arrayContaining([ref.key]),
        });
        const object = named(kind, ref.name);
        if (object?.data?.[ref.key] !== undefined)
          env[variable.name] =
            kind === 'Secret'
              ? Buffer.from(object.data[ref.key], 'base64').toString('utf8')
              : object.data[ref.key];
      }
      expect(() => loadConfig(env)).not.toThrow();
      expect(env.PORT).toBe(String(APP_PORT));
      expect(env.KAFKA_BROKERS).toBeDefined();
      expect(container.env?.map((v) => v.name)).toContain('DATABASE_URL');
    }
    for (const name of Object.keys(external))
      expect({ name, rendered: named('Secret', name) !== undefined }).toEqual({
        name,
        rendered: false,
      });
  });

  it(`points DATABASE_URL at ${expected.postgres ? 'its own PostgreSQL, with its credentials' : 'an external PostgreSQL'}`, () => {
    const secret = named('Secret', podSecretName(workloads[0]))!;
    if (!expected.postgres) {
      expect(secret).toBeUndefined();
      expect(ofKind('StatefulSet')).toEqual([]);
      return;
    }
    const decode = (object: K8sObject, key: string) =>
      Buffer.from(object.data![key], 'base64').toString('utf8');
    const url = new URL(decode(secret, 'DATABASE_URL'));
    const service = named('Service', url.hostname)!;
    expect(service).toBeDefined();
    expect((service.spec as { ports: { port: number }[] }).ports.map((p) => p.port)).toContain(
      Number(url.port),
    );
    const database = named('StatefulSet', expected.postgres)!;
    const source = podSpecOf(database).containers[0].envFrom?.[0].secretRef?.name;
    const credentials = named('Secret', source!)!;
    expect({
      user: url.username,
      password: url.password,
      database: url.pathname.slice(1),
    }).toEqual({
      user: decode(credentials, 'POSTGRES_USER'),
      password: decode(credentials, 'POSTGRES_PASSWORD'),
      database: decode(credentials, 'POSTGRES_DB'),
    });
  });

  it('migrates with a Job running admin migrate from the same image', () => {
    const jobs = ofKind('Job');
    expect(jobs.map((j) => j.metadata.name)).toEqual(['consign-migrate']);
    const pod = podSpecOf(jobs[0]);
    expect(pod.containers[0].command).toEqual(appCommand('admin', 'migrate'));
    expect(appOfCommand(pod.containers[0].command)).toBe('admin');
    expect(pod.containers[0].image).toBe(podSpecOf(deployments[0]).containers[0].image);
    expect((pod as unknown as { restartPolicy: string }).restartPolicy).toBe('OnFailure');
  });

  it('runs the Strimzi cluster consign in KRaft mode, its bootstrap what the apps use', () => {
    expect(ofKind('Kafka').map((k) => k.metadata.name)).toEqual(['consign']);
    expect(kafka.metadata.annotations).toMatchObject({
      'strimzi.io/kraft': 'enabled',
      'strimzi.io/node-pools': 'enabled',
    });
    const spec = kafka.spec as {
      kafka: {
        version: string;
        listeners: { port: number; tls: boolean }[];
        config: Record<string, unknown>;
      };
      zookeeper?: unknown;
    };
    expect(spec.zookeeper).toBeUndefined();
    expect(spec.kafka.config['auto.create.topics.enable']).toBe(false);
    const plain = spec.kafka.listeners.find((listener) => !listener.tls)!;
    expect(named('ConfigMap', 'consign-config')?.data?.KAFKA_BROKERS).toBe(
      `${kafka.metadata.name}-kafka-bootstrap:${plain.port}`,
    );
    const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), {
      merge: true,
    }) as { services: { kafka: { image: string } } };
    expect(compose.services.kafka.image).toBe(`apache/kafka:${spec.kafka.version}`);
    for (const pool of nodePools)
      expect(pool.metadata.labels?.['strimzi.io/cluster']).toBe(kafka.metadata.name);
    const roles = nodePools.flatMap((pool) => (pool.spec as { roles: string[] }).roles);
    expect(new Set(roles)).toEqual(new Set(['controller', 'broker']));
    expect(brokers).toBe(expected.kafkaNodes);
  });

  it('declares a KafkaTopic for every topic of the contracts, named as agreed', () => {
    const names = topics.map((topic) => (topic.spec as { topicName: string }).topicName);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(contractTopics()));
    for (const topic of topics) {
      const topicName = (topic.spec as { topicName: string }).topicName;
      expect(topic.metadata.name).toBe(topicName.replace(/[._]/g, '-'));
      expect(topic.metadata.labels?.['strimzi.io/cluster']).toBe(kafka.metadata.name);
    }
  });

  it('replicates topics no more than the brokers allow, and as the overlay intends', () => {
    for (const topic of topics) {
      const { replicas, minInSync } = topicSettings(topic);
      expect(replicas).toBeLessThanOrEqual(brokers);
      expect(minInSync).toBeLessThan(replicas === 1 ? 2 : replicas);
    }
    if (overlay === 'prod') {
      for (const topic of topics)
        expect(topicSettings(topic)).toMatchObject({ replicas: 3, minInSync: 2 });
      expect(kafkaConfig()).toMatchObject({
        'default.replication.factor': 3,
        'min.insync.replicas': 2,
        'offsets.topic.replication.factor': 3,
        'transaction.state.log.replication.factor': 3,
        'transaction.state.log.min.isr': 2,
      });
    }
  });

  it(`sizes the overlay: ${overlay === 'dev' ? 'one small replica, ephemeral Kafka' : 'two or more replicas, persistent Kafka'}`, () => {
    const storage = (
      nodePools[0].spec as {
        storage: { type: string; volumes?: { type: string; deleteClaim: boolean }[] };
      }
    ).storage;
    if (overlay === 'dev') {
      for (const deployment of deployments) expect(minimumReplicas(deployment)).toBe(1);
      expect(storage).toEqual({ type: 'ephemeral' });
    } else {
      for (const deployment of deployments)
        expect({ name: deployment.metadata.name, min: minimumReplicas(deployment) }).toEqual({
          name: deployment.metadata.name,
          min: expect.any(Number),
        });
      for (const deployment of deployments)
        expect(minimumReplicas(deployment)).toBeGreaterThanOrEqual(2);
      expect(storage.type).toBe('jbod');
      expect(storage.volumes).toEqual([
        expect.objectContaining({ type: 'persistent-claim', deleteClaim: false }),
      ]);
    }
  });
});
