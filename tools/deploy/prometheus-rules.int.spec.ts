import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from './topology';

/**
 * The alert rules (k8s/base/monitoring/prometheus-rule.yaml) and the Grafana dashboard's queries,
 * checked by Prometheus' own promtool (Debian package `prometheus`; .ci/run installs it): the rules
 * parse, each alert's unit test in tools/deploy/prometheus/consign-alerts.test.yaml passes, every
 * alert the docs name exists, and every dashboard query is valid PromQL over metrics that exist.
 */
interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
interface RuleGroups {
  groups: { name: string; rules: AlertRule[] }[];
}
interface AlertTest {
  name: string;
  alert_rule_test: { alertname: string; exp_alerts: unknown[] }[];
}
interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
const RULE_FILE = 'k8s/base/monitoring/prometheus-rule.yaml';
const TEST_FILE = 'tools/deploy/prometheus/consign-alerts.test.yaml';
const DASHBOARD_FILE = 'k8s/base/monitoring/consign-dashboard.json';

const PROMTOOL = spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;

function promtool(...args: string[]): { ok: boolean; output: string } {
  const run = spawnSync('promtool', args, { encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

/** The PrometheusRule's spec as a plain rules file, with the unit tests beside it. */
function rulesFolder(spec: RuleGroups): string {
  const folder = mkdtempSync(join(tmpdir(), 'consign-rules-'));
  writeFileSync(join(folder, 'consign-alerts.rules.yaml'), stringify(spec));
  copyFileSync(join(REPO_ROOT, TEST_FILE), join(folder, 'consign-alerts.test.yaml'));
  return folder;
}

const PROMQL_WORDS = new Set(
  [
    'sum',
    'max',
    'min',
    'avg',
    'count',
    'by',
    'without',
    'on',
    'ignoring',
    'and',
    'or',
    'unless',
    'rate',
    'increase',
    'deriv',
    'changes',
    'scalar',
    'histogram_quantile',
    'min_over_time',
    'max_over_time',
    'group_left',
    'group_right',
  ].map((word) => word.toLowerCase()),
);

/** The metric names a PromQL expression reads. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)]
    .map(([word]) => word)
    .filter((word) => !PROMQL_WORDS.has(word.toLowerCase()) && !/^\d/.test(word));
}

/** The metrics Consign's processes export (libs/observability/src/metrics.ts). */
function consignMetrics(): Set<string> {
  const source = read('libs/observability/src/metrics.ts');
  const names = [
    ...source.matchAll(/name: '([a-z_]+)'/g),
    ...source.matchAll(/new FastHistogram\(\s*'([a-z_]+)'/g),
  ].map(([, name]) => name);
  const histograms = [...source.matchAll(/new FastHistogram\(\s*'([a-z_]+)'/g)].map(([, n]) => n);
  return new Set([
    ...names,
    ...histograms.flatMap((name) => [`${name}_bucket`, `${name}_count`, `${name}_sum`]),
  ]);
}

/**
 * Series from elsewhere: prom-client's default process metrics, Prometheus' `up`, kube-state-metrics
 * and Strimzi's Kafka exporter.
 */
const FOREIGN_METRIC = /^(?:process_|nodejs_|up$|kube_|kafka_consumergroup_|kafka_topic_)/;

/** Grafana's variables, as a Prometheus query would see them. */
const asPromQL = (expr: string) =>
  expr
    .replace(/\$__rate_interval|\$__interval/g, '5m')
    .replace(/\$__range/g, '1h')
    .replace(/\$namespace/g, 'consign');

const rule = parse(read(RULE_FILE)) as { kind: string; spec: RuleGroups };
const alerts = rule.spec.groups.flatMap((group) => group.rules);
const tests = (parse(read(TEST_FILE)) as { tests: AlertTest[] }).tests;
const dashboard = JSON.parse(read(DASHBOARD_FILE)) as { uid: string; panels: Panel[] };
const queries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
);

describe('alert rules and dashboard queries (promtool)', () => {
  let folder: string;
  beforeAll(() => {
    if (!PROMTOOL)
      throw new Error(
        'promtool not found: install the Debian package `prometheus` (apt-get install prometheus; .ci/run does it when missing)',
      );
    folder = rulesFolder(rule.spec);
  });
  afterAll(() => folder && rmSync(folder, { recursive: true, force: true }));

  it('passes promtool check rules', () => {
    const check = promtool('check', 'rules', join(folder, 'consign-alerts.rules.yaml'));
    expect(check.output).toContain(`SUCCESS: ${alerts.length} rules found`);
    expect(check.ok).toBe(true);
  });

  it("passes every alert's unit test (promtool test rules)", () => {
    const run = promtool('test', 'rules', join(folder, 'consign-alerts.test.yaml'));
    expect(run.output).toContain('SUCCESS');
    expect(run.ok).toBe(true);
  });

  it('has a unit test per alert that sees it fire and sees it stay quiet', () => {
    expect(alerts.map((a) => a.alert).sort()).toEqual(tests.map((t) => t.name).sort());
    for (const { alert } of alerts) {
      const cases = tests
        .filter((t) => t.name === alert)
        .flatMap((t) => t.alert_rule_test)
        .filter((c) => c.alertname === alert);
      expect({
        alert,
        fires: cases.some((c) => c.exp_alerts.length > 0),
        quiet: cases.some((c) => c.exp_alerts.length === 0),
      }).toEqual({ alert, fires: true, quiet: true });
    }
  });

  it('catches a broken rule: a wrong threshold fails its unit test, bad PromQL fails the check', () => {
    const broken = structuredClone(rule.spec);
    const apiErrors = broken.groups[0].rules.find((r) => r.alert === 'ConsignApiErrors')!;
    apiErrors.expr = apiErrors.expr.replace('> 0.01', '> 0.5');
    const brokenFolder = rulesFolder(broken);
    try {
      const run = promtool('test', 'rules', join(brokenFolder, 'consign-alerts.test.yaml'));
      expect(run.ok).toBe(false);
      expect(run.output).toContain('ConsignApiErrors');
      apiErrors.expr = 'sum(rate(http_request_duration_seconds_count[5m]) > ';
      writeFileSync(join(brokenFolder, 'consign-alerts.rules.yaml'), stringify(broken));
      expect(promtool('check', 'rules', join(brokenFolder, 'consign-alerts.rules.yaml')).ok).toBe(
        false,
      );
    } finally {
      rmSync(brokenFolder, { recursive: true, force: true });
    }
  });

  it('parses every dashboard query as PromQL (promtool check rules, as recording rules)', () => {
    expect(queries.length).toBeGreaterThan(0);
    const asRules = {
      groups: [
        {
          name: 'dashboard',
          rules: queries.map((query, i) => ({
            record: `dashboard:query_${i}`,
            expr: asPromQL(query.expr),
          })),
        },
      ],
    };
    const file = join(folder, 'dashboard.rules.yaml');
    writeFileSync(file, stringify(asRules));
    const check = promtool('check', 'rules', file);
    expect(check.output).toContain(`SUCCESS: ${queries.length} rules found`);
    expect(check.ok).toBe(true);
  });
});

describe('what the alerts and the dashboard cover', () => {
  it('gives every alert a severity, a summary, a description and a runbook section that exists', () => {
    for (const { alert, labels, annotations } of alerts) {
      expect({ alert, severity: labels.severity }).toEqual({
        alert,
        severity: expect.stringMatching(/^(page|ticket)$/),
      });
      const [file, anchor] = annotations.runbook_url.split('#');
      const headings = read(file)
        .split('\n')
        .filter((line) => line.startsWith('#'))
        .map((line) =>
          line
            .replace(/^#+\s*/, '')
            .toLowerCase()
            .replace(/[^a-z0-9 -]/g, '')
            .replace(/ /g, '-'),
        );
      expect({ alert, anchor, found: headings.includes(anchor) }).toEqual({
        alert,
        anchor,
        found: true,
      });
    }
  });

  it('alerts on every metric the docs say to alert on', () => {
    const defined = consignMetrics();
    const section = (file: string, heading: string) => {
      const text = read(file);
      const start = text.indexOf(heading);
      expect(start).toBeGreaterThanOrEqual(0);
      const end = text.indexOf('\n## ', start + heading.length);
      return text.slice(start, end < 0 ? undefined : end);
    };
    const documented = [
      section('docs/observability.md', '### Suggested alerts'),
      section('docs/operations.md', '## Metrics to alert on'),
    ]
      .flatMap((text) => [...text.matchAll(/`([^`]+)`/g)].map(([, code]) => code))
      .flatMap(metricsOf)
      // The docs' prose also quotes log fields and the like: keep the metrics.
      .filter((word) => defined.has(word) || FOREIGN_METRIC.test(word));
    const alerted = new Set(alerts.flatMap((a) => metricsOf(a.expr)));
    expect(documented.length).toBeGreaterThan(5);
    expect([...new Set(documented)].filter((metric) => !alerted.has(metric))).toEqual([]);
  });

  it('reads only metrics that Consign or a named exporter exports', () => {
    const defined = consignMetrics();
    const used = new Set(
      [...alerts.map((a) => a.expr), ...queries.map((q) => q.expr)].flatMap(metricsOf),
    );
    const unknown = [...used].filter(
      (metric) => !defined.has(metric) && !FOREIGN_METRIC.test(metric),
    );
    expect(unknown).toEqual([]);
  });

  it('shows the golden signals, consumer lag, outbox age and dead letters on the dashboard', () => {
    const all = queries.map((q) => q.expr).join('\n');
    for (const needle of [
      'http_request_duration_seconds_count', // traffic
      'status_class="5xx"', // errors
      'http_request_duration_seconds_bucket', // latency
      'nodejs_eventloop_lag_p99_seconds', // saturation
      'process_cpu_seconds_total',
      'kafka_consumer_lag', // consumer lag, as the apps see it
      'kafka_consumergroup_lag', // and as the Kafka exporter does
      'outbox_oldest_pending_age_seconds', // outbox age
      'outcome="dead-lettered"', // DLT counts
      'batch_consumer_dead_lettered_total',
      '\\\\.dlt',
    ])
      expect({ needle, shown: all.includes(needle) }).toEqual({ needle, shown: true });
    expect(dashboard.uid).toMatch(/^[a-z0-9-]{1,40}$/);
    const ids = dashboard.panels.map((p) => (p as unknown as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
