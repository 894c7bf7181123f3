import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { K8sObject, KUBECTL, renderOverlay } from './kustomize-render';
import { REPO_ROOT } from './topology';

/**
 * The Prometheus Operator's objects in each rendered overlay: a ServiceMonitor per app, the alert
 * rules, the Grafana dashboard's ConfigMap and, in production, Strimzi's Kafka exporter scraped by
 * a PodMonitor. The rules' and the dashboard's PromQL are checked by promtool in
 * prometheus-rules.int.spec.ts.
 */
type Schema = Record<string, unknown>;
const labelMap: Schema = { type: 'object', additionalProperties: { type: 'string' } };
const metadata: Schema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', minLength: 1 }, labels: labelMap },
};
const endpoint = (port: string): Schema => ({
  type: 'object',
  required: [port, 'path'],
  properties: {
    [port]: { type: 'string', minLength: 1 },
    path: { type: 'string', pattern: '^/' },
    interval: { type: 'string', pattern: '^\\d+[smh]$' },
    scrapeTimeout: { type: 'string', pattern: '^\\d+[smh]$' },
  },
});
const selector: Schema = {
  type: 'object',
  required: ['matchLabels'],
  properties: { matchLabels: { ...labelMap, minProperties: 1 } },
};
const object = (spec: Schema): Schema => ({
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: { metadata, spec },
});

/** Essential fields of the monitoring.coreos.com/v1 kinds (their CRDs are not installed here). */
const MONITORING_SCHEMAS: Record<string, Schema> = {
  ServiceMonitor: object({
    type: 'object',
    required: ['selector', 'endpoints'],
    properties: {
      selector,
      targetLabels: { type: 'array', items: { type: 'string' } },
      endpoints: { type: 'array', minItems: 1, items: endpoint('port') },
    },
  }),
  PodMonitor: object({
    type: 'object',
    required: ['selector', 'podMetricsEndpoints'],
    properties: {
      selector,
      podMetricsEndpoints: { type: 'array', minItems: 1, items: endpoint('port') },
    },
  }),
  PrometheusRule: object({
    type: 'object',
    required: ['groups'],
    properties: {
      groups: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          required: ['name', 'rules'],
          properties: {
            name: { type: 'string', minLength: 1 },
            rules: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['alert', 'expr', 'labels', 'annotations'],
                properties: {
                  alert: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]+$' },
                  expr: { type: 'string', minLength: 1 },
                  for: { type: 'string', pattern: '^\\d+[smh]$' },
                  labels: { ...labelMap, required: ['severity'] },
                  annotations: { ...labelMap, required: ['summary', 'description', 'runbook_url'] },
                },
              },
            },
          },
        },
      },
    },
  }),
};

interface ServiceSpec {
  selector: Record<string, string>;
  ports: { name?: string; port: number }[];
}
interface MonitorSpec {
  selector: { matchLabels: Record<string, string> };
  targetLabels?: string[];
  endpoints?: { port: string; path: string }[];
  podMetricsEndpoints?: { port: string; path: string }[];
}

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

const describeWithKubectl = KUBECTL ? describe : describe.skip;
if (!KUBECTL)
  process.stderr.write(
    'k8s monitoring objects are not rendered: no kubectl (Debian package kubectl) on this machine\n',
  );

describeWithKubectl.each(['dev', 'prod'])('k8s overlay %s: monitoring', (overlay) => {
  const objects = renderOverlay(overlay);
  const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const monitorSpec = (o: K8sObject) => o.spec as unknown as MonitorSpec;
  const scraped = ofKind('Service').filter(
    (service) => service.metadata.annotations?.['prometheus.io/scrape'] === 'true',
  );

  it('validates the Prometheus Operator objects against their essential fields', () => {
    const ajv = new Ajv({ allErrors: true });
    const invalid: string[] = [];
    const monitoring = objects.filter((o) => o.apiVersion.startsWith('monitoring.coreos.com/'));
    for (const o of monitoring) {
      const schema = o.apiVersion === 'monitoring.coreos.com/v1' && MONITORING_SCHEMAS[o.kind];
      if (!schema) {
        invalid.push(`${o.apiVersion}/${o.kind} has no schema`);
        continue;
      }
      const validate = ajv.compile(schema);
      const data: unknown = o;
      if (!validate(data))
        invalid.push(
          `${o.kind}/${o.metadata.name}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`).join(', ')}`,
        );
    }
    expect(invalid).toEqual([]);
    expect(ofKind('PrometheusRule').map((o) => o.metadata.name)).toEqual(['consign-alerts']);
    // The checks can fail: a rule without its runbook is refused.
    const rule = ofKind('PrometheusRule')[0];
    const broken = structuredClone(rule) as unknown as {
      spec: { groups: { rules: { annotations: Record<string, string> }[] }[] };
    };
    delete broken.spec.groups[0].rules[0].annotations.runbook_url;
    expect(ajv.compile(MONITORING_SCHEMAS.PrometheusRule)(broken)).toBe(false);
  });

  it('scrapes every app with exactly one ServiceMonitor, on the port and path its Service declares', () => {
    const monitors = ofKind('ServiceMonitor');
    expect(scraped.length).toBeGreaterThan(0);
    for (const service of scraped) {
      const selecting = monitors.filter((m) =>
        matches(monitorSpec(m).selector.matchLabels, service.metadata.labels),
      );
      expect({ service: service.metadata.name, monitors: selecting.length }).toEqual({
        service: service.metadata.name,
        monitors: 1,
      });
      const [monitor] = selecting;
      expect(monitor.metadata.name).toBe(service.metadata.name);
      const ports = (service.spec as unknown as ServiceSpec).ports.map((p) => p.name);
      for (const { port, path } of monitorSpec(monitor).endpoints ?? []) {
        expect(ports).toContain(port);
        expect(path).toBe(service.metadata.annotations?.['prometheus.io/path']);
      }
      // The rules and the dashboard select app_kubernetes_io_part_of="consign".
      expect(monitorSpec(monitor).targetLabels).toContain('app.kubernetes.io/part-of');
      expect(service.metadata.labels?.['app.kubernetes.io/part-of']).toBe('consign');
    }
    // No ServiceMonitor selects nothing.
    for (const monitor of monitors)
      expect({
        monitor: monitor.metadata.name,
        selects: scraped.some((s) =>
          matches(monitorSpec(monitor).selector.matchLabels, s.metadata.labels),
        ),
      }).toEqual({ monitor: monitor.metadata.name, selects: true });
  });

  it('ships the alert rules and the Grafana dashboard as they are in k8s/base/monitoring', () => {
    const file = parse(
      readFileSync(join(REPO_ROOT, 'k8s/base/monitoring/prometheus-rule.yaml'), 'utf8'),
    ) as { spec: unknown };
    expect(ofKind('PrometheusRule')[0].spec).toEqual(file.spec);
    const dashboards = ofKind('ConfigMap').filter(
      (map) => map.metadata.labels?.grafana_dashboard === '1',
    );
    expect(dashboards.map((d) => d.metadata.name)).toEqual(['consign-dashboard']);
    const json = readFileSync(
      join(REPO_ROOT, 'k8s/base/monitoring/consign-dashboard.json'),
      'utf8',
    );
    expect(dashboards[0].data).toEqual({ 'consign-dashboard.json': json });
  });

  it(`${overlay === 'prod' ? 'runs' : 'leaves out'} Strimzi's Kafka exporter${overlay === 'prod' ? ', scraped by a PodMonitor' : ''}`, () => {
    const [kafka] = ofKind('Kafka');
    const exporter = (
      kafka.spec as { kafkaExporter?: { groupRegex?: string; topicRegex?: string } }
    ).kafkaExporter;
    const podMonitors = ofKind('PodMonitor');
    if (overlay !== 'prod') {
      expect(exporter).toBeUndefined();
      expect(podMonitors).toEqual([]);
      return;
    }
    // Every group and topic: the dashboard's lag and dead-letter panels read them all.
    expect(exporter).toMatchObject({ groupRegex: '.*', topicRegex: '.*' });
    // The labels Strimzi puts on the exporter's pods, and the port it serves metrics on.
    const exporterPod = {
      'strimzi.io/cluster': kafka.metadata.name,
      'strimzi.io/kind': 'Kafka',
      'strimzi.io/name': `${kafka.metadata.name}-kafka-exporter`,
    };
    const selecting = podMonitors.filter((m) =>
      matches(monitorSpec(m).selector.matchLabels, exporterPod),
    );
    expect(selecting).toHaveLength(1);
    expect(monitorSpec(selecting[0]).podMetricsEndpoints).toEqual([
      expect.objectContaining({ port: 'tcp-prometheus', path: '/metrics' }),
    ]);
  });
});
