import { Registry } from 'prom-client';
import { FastHistogram } from './fast-histogram';

describe('FastHistogram', () => {
  it('exposes cumulative buckets, +Inf, sum and count per series in the Prometheus format', async () => {
    const registry = new Registry();
    const histogram = new FastHistogram(
      'test_duration_seconds',
      'How long tests took',
      ['route', 'status_class'] as const,
      [0.01, 0.1, 1],
      registry,
    );
    const ok = histogram.series('/a/:id', '2xx');
    ok.observe(0.005);
    ok.observe(0.05);
    ok.observe(5);
    histogram.observe({ route: '/b', status_class: '4xx' }, 0.1);
    expect(histogram.series('/a/:id', '2xx')).toBe(ok);
    expect(await registry.metrics()).toBe(
      [
        '# HELP test_duration_seconds How long tests took',
        '# TYPE test_duration_seconds histogram',
        'test_duration_seconds_bucket{le="0.01",route="/a/:id",status_class="2xx"} 1',
        'test_duration_seconds_bucket{le="0.1",route="/a/:id",status_class="2xx"} 2',
        'test_duration_seconds_bucket{le="1",route="/a/:id",status_class="2xx"} 2',
        'test_duration_seconds_bucket{le="+Inf",route="/a/:id",status_class="2xx"} 3',
        'test_duration_seconds_sum{route="/a/:id",status_class="2xx"} 5.055',
        'test_duration_seconds_count{route="/a/:id",status_class="2xx"} 3',
        'test_duration_seconds_bucket{le="0.01",route="/b",status_class="4xx"} 0',
        'test_duration_seconds_bucket{le="0.1",route="/b",status_class="4xx"} 1',
        'test_duration_seconds_bucket{le="1",route="/b",status_class="4xx"} 1',
        'test_duration_seconds_bucket{le="+Inf",route="/b",status_class="4xx"} 1',
        'test_duration_seconds_sum{route="/b",status_class="4xx"} 0.1',
        'test_duration_seconds_count{route="/b",status_class="4xx"} 1',
        '',
      ].join('\n'),
    );
    histogram.reset();
    expect(await registry.metrics()).not.toContain('_count');
  });
});
