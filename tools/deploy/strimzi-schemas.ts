import type { JSONSchemaType } from 'ajv';

/**
 * JSON Schemas of the Strimzi resources Consign declares (kafka.strimzi.io/v1beta2), written
 * from Strimzi's API reference: no package ships Strimzi's CRDs for offline use, so these cover
 * the essential fields — the ones Consign sets and the ones the operator needs to reconcile —
 * with their types, enums and ranges. Where Strimzi's own schema is closed (KafkaTopic.spec,
 * KafkaNodePool.spec, listeners, storage), so is this one, so a misspelt field fails here too.
 */
type Schema = JSONSchemaType<unknown> | Record<string, unknown>;

const DNS_1123_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';
const QUANTITY = '^[0-9]+(\\.[0-9]+)?(m|k|Ki|M|Mi|G|Gi|T|Ti)?$';

const metadata = (required: string[] = []): Schema => ({
  type: 'object',
  required: ['name', ...required],
  properties: {
    name: { type: 'string', pattern: DNS_1123_SUBDOMAIN, maxLength: 253 },
    namespace: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
  },
});

const clusterLabel: Schema = {
  type: 'object',
  required: ['labels'],
  properties: {
    labels: {
      type: 'object',
      required: ['strimzi.io/cluster'],
      properties: { 'strimzi.io/cluster': { type: 'string', minLength: 1 } },
    },
  },
};

const resources: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    requests: {
      type: 'object',
      additionalProperties: false,
      properties: {
        cpu: { type: 'string', pattern: QUANTITY },
        memory: { type: 'string', pattern: QUANTITY },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        cpu: { type: 'string', pattern: QUANTITY },
        memory: { type: 'string', pattern: QUANTITY },
      },
    },
  },
};

const persistentClaim: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'size'],
  properties: {
    id: { type: 'integer', minimum: 0 },
    type: { const: 'persistent-claim' },
    size: { type: 'string', pattern: QUANTITY },
    class: { type: 'string' },
    deleteClaim: { type: 'boolean' },
    kraftMetadata: { enum: ['shared'] },
  },
};

const ephemeral: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['type'],
  properties: {
    id: { type: 'integer', minimum: 0 },
    type: { const: 'ephemeral' },
    sizeLimit: { type: 'string', pattern: QUANTITY },
    kraftMetadata: { enum: ['shared'] },
  },
};

const storage: Schema = {
  oneOf: [
    ephemeral,
    persistentClaim,
    {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'volumes'],
      properties: {
        type: { const: 'jbod' },
        volumes: {
          type: 'array',
          minItems: 1,
          items: {
            oneOf: [
              { ...persistentClaim, required: ['id', 'type', 'size'] },
              { ...ephemeral, required: ['id', 'type'] },
            ],
          },
        },
      },
    },
  ],
};

const configValues: Schema = {
  type: 'object',
  additionalProperties: { type: ['string', 'number', 'boolean'] },
};

const kafka: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'kafka.strimzi.io/v1beta2' },
    kind: { const: 'Kafka' },
    metadata: {
      allOf: [
        metadata(['annotations']),
        {
          type: 'object',
          properties: {
            annotations: {
              type: 'object',
              required: ['strimzi.io/node-pools', 'strimzi.io/kraft'],
              properties: {
                'strimzi.io/node-pools': { const: 'enabled' },
                'strimzi.io/kraft': { const: 'enabled' },
              },
            },
          },
        },
      ],
    },
    spec: {
      type: 'object',
      required: ['kafka'],
      // With node pools and KRaft, replicas and storage live in the KafkaNodePools.
      not: { required: ['zookeeper'] },
      properties: {
        kafka: {
          type: 'object',
          required: ['listeners'],
          properties: {
            version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
            metadataVersion: { type: 'string', pattern: '^\\d+\\.\\d+-IV\\d+$' },
            listeners: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['name', 'port', 'type', 'tls'],
                properties: {
                  name: { type: 'string', pattern: '^[a-z0-9]{1,11}$' },
                  port: { type: 'integer', minimum: 9092 },
                  type: {
                    enum: [
                      'internal',
                      'route',
                      'loadbalancer',
                      'nodeport',
                      'ingress',
                      'cluster-ip',
                    ],
                  },
                  tls: { type: 'boolean' },
                  authentication: { type: 'object' },
                  configuration: { type: 'object' },
                  networkPolicyPeers: { type: 'array' },
                },
              },
            },
            config: configValues,
            resources,
          },
        },
        entityOperator: {
          type: 'object',
          properties: { topicOperator: { type: 'object' }, userOperator: { type: 'object' } },
        },
      },
    },
  },
};

const kafkaNodePool: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'kafka.strimzi.io/v1beta2' },
    kind: { const: 'KafkaNodePool' },
    metadata: { allOf: [metadata(['labels']), clusterLabel] },
    spec: {
      type: 'object',
      additionalProperties: false,
      required: ['replicas', 'roles', 'storage'],
      properties: {
        replicas: { type: 'integer', minimum: 0 },
        roles: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { enum: ['controller', 'broker'] },
        },
        storage,
        resources,
        jvmOptions: { type: 'object' },
        template: { type: 'object' },
      },
    },
  },
};

const kafkaTopic: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { const: 'kafka.strimzi.io/v1beta2' },
    kind: { const: 'KafkaTopic' },
    metadata: { allOf: [metadata(['labels']), clusterLabel] },
    spec: {
      type: 'object',
      additionalProperties: false,
      // Both optional, as in Strimzi: the broker's num.partitions / default.replication.factor.
      properties: {
        topicName: { type: 'string', pattern: '^[a-zA-Z0-9._-]{1,249}$' },
        partitions: { type: 'integer', minimum: 1 },
        replicas: { type: 'integer', minimum: 1, maximum: 32767 },
        config: configValues,
      },
    },
  },
};

export const STRIMZI_SCHEMAS: Record<string, Schema> = {
  'kafka.strimzi.io/v1beta2/Kafka': kafka,
  'kafka.strimzi.io/v1beta2/KafkaNodePool': kafkaNodePool,
  'kafka.strimzi.io/v1beta2/KafkaTopic': kafkaTopic,
};
