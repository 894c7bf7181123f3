import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('applies defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATABASE_POOL_SIZE).toBe(10);
    expect(config.kafkaBrokers).toEqual([]);
    expect([
      config.SHUTDOWN_DELAY_MS,
      config.SHUTDOWN_DRAIN_TIMEOUT_MS,
      config.SHUTDOWN_CLOSE_TIMEOUT_MS,
    ]).toEqual([5000, 10_000, 10_000]);
  });

  it('reads and converts values', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      DATABASE_POOL_SIZE: '4',
      KAFKA_BROKERS: 'kafka-0:9092,kafka-1:9092',
    });
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_POOL_SIZE).toBe(4);
    expect(config.kafkaBrokers).toEqual(['kafka-0:9092', 'kafka-1:9092']);
  });

  it('treats blank optional values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', KAFKA_BROKERS: ' ' }).DATABASE_URL).toBeUndefined();
  });

  it('reads the log format and the OTLP endpoint, both unset by default', () => {
    expect(loadConfig({}).LOG_FORMAT).toBeUndefined();
    expect(loadConfig({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'text' }).LOG_FORMAT).toBe('text');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })
        .OTEL_EXPORTER_OTLP_ENDPOINT,
    ).toBe('http://collector:4318');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_SIZE: 'ten' }, 'DATABASE_POOL_SIZE'],
    [{ KAFKA_BROKERS: 'kafka-0' }, 'KAFKA_BROKERS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SHUTDOWN_DELAY_MS: '-1' }, 'SHUTDOWN_DELAY_MS'],
    [{ SHUTDOWN_DRAIN_TIMEOUT_MS: 'soon' }, 'SHUTDOWN_DRAIN_TIMEOUT_MS'],
    [{ SHUTDOWN_CLOSE_TIMEOUT_MS: '10' }, 'SHUTDOWN_CLOSE_TIMEOUT_MS'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    // Below 250 kafkajs busy-loops on the test broker; above 5,000 heartbeats come too seldom.
    [{ KAFKA_FETCH_MAX_WAIT_MS: '100' }, 'KAFKA_FETCH_MAX_WAIT_MS'],
    [{ KAFKA_FETCH_MAX_WAIT_MS: '6000' }, 'KAFKA_FETCH_MAX_WAIT_MS'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('says which rule a set value breaks, not that it is missing', () => {
    expect(() => loadConfig({ KAFKA_FETCH_MAX_WAIT_MS: '100', BUS_TIMEOUT_MS: '200000' })).toThrow(
      'Invalid configuration:\n  - BUS_TIMEOUT_MS must not be greater than 120000\n  - KAFKA_FETCH_MAX_WAIT_MS must not be less than 250',
    );
  });
});
