import { Metric, Registry } from 'prom-client';

/** One labelled series of a FastHistogram: observing is a bucket search and three additions. */
export class HistogramSeries {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        this.counts[i]++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels: Record<string, string>;
  value: number;
  metricName: string;
}

/**
 * A Prometheus histogram for the per-request path. prom-client's Histogram validates and hashes
 * its labels on every observe (≈2 µs here, even through a labelled child); a series handle of
 * this one is resolved once per label set and then costs a few nanoseconds. The exposition is
 * prom-client's own: it is registered in the same Registry and formatted by it.
 */
export class FastHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all = new Map<string, HistogramSeries>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of these label values (in labelNames order), created on first use. */
  series(...values: string[]): HistogramSeries {
    const key = values.join('\u0000');
    let series = this.all.get(key);
    if (!series) {
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i] ?? ''));
      series = new HistogramSeries(labels, this.bounds);
      this.all.set(key, series);
    }
    return series;
  }

  observe(labels: Record<L, string>, value: number): void {
    this.series(...this.labelNames.map((name) => labels[name])).observe(value);
  }

  reset(): void {
    this.all.clear();
  }

  /** What prom-client's Registry formats (the shape of its own Histogram#get). */
  async get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: ExportedValue[];
  }> {
    const values: ExportedValue[] = [];
    for (const series of this.all.values()) {
      const shared = { ...series.labels };
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i];
        values.push({
          labels: { le },
          sharedLabels: shared,
          value: cumulative,
          metricName: `${this.name}_bucket`,
        });
      });
      values.push(
        {
          labels: { le: '+Inf' },
          sharedLabels: shared,
          value: series.count,
          metricName: `${this.name}_bucket`,
        },
        { labels: {}, sharedLabels: shared, value: series.sum, metricName: `${this.name}_sum` },
        {
          labels: {},
          sharedLabels: shared,
          value: series.count,
          metricName: `${this.name}_count`,
        },
      );
    }
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }
}
