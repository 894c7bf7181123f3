import { ConfigError, loadConfigOf } from '@consign/config';
import { GatewayConfig } from './gateway.config';

const load = (env: NodeJS.ProcessEnv) => loadConfigOf(GatewayConfig, env);

describe('GatewayConfig', () => {
  it('applies defaults when nothing is set', () => {
    const config = load({});
    expect(config.BOOTSTRAP_API_KEY).toBeUndefined();
    expect(config.BOOTSTRAP_ADMIN_KEY).toBeUndefined();
    expect([
      config.KEY_REVOCATION_POLL_MS,
      config.BODY_LIMIT_BYTES,
      config.RATE_LIMIT_MAX,
      config.RATE_LIMIT_WINDOW_MS,
    ]).toEqual([1000, 1024 * 1024, 6000, 60_000]);
  });

  it('reads the bootstrap keys (settings without a default are read too)', () => {
    const config = load({
      BOOTSTRAP_API_KEY: 'ck_0123456789abcdef',
      BOOTSTRAP_ADMIN_KEY: 'ak_0123456789abcdef',
      RATE_LIMIT_MAX: '0',
    });
    expect(config.BOOTSTRAP_API_KEY).toBe('ck_0123456789abcdef');
    expect(config.BOOTSTRAP_ADMIN_KEY).toBe('ak_0123456789abcdef');
    expect(config.RATE_LIMIT_MAX).toBe(0);
  });

  it('reads the Redis of the shared rate limit, unset by default', () => {
    expect(load({}).REDIS_URL).toBeUndefined();
    expect(load({ REDIS_URL: ' ' }).REDIS_URL).toBeUndefined();
    expect(load({ REDIS_URL: 'redis://:secret@redis:6379/2' }).REDIS_URL).toBe(
      'redis://:secret@redis:6379/2',
    );
  });

  it.each([
    [{ BOOTSTRAP_API_KEY: 'short' }, 'BOOTSTRAP_API_KEY'],
    [{ BOOTSTRAP_ADMIN_KEY: 'has a space in it' }, 'BOOTSTRAP_ADMIN_KEY'],
    [{ KEY_REVOCATION_POLL_MS: '-1' }, 'KEY_REVOCATION_POLL_MS'],
    [{ BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    [{ RATE_LIMIT_WINDOW_MS: 'soon' }, 'RATE_LIMIT_WINDOW_MS'],
    [{ REDIS_URL: '127.0.0.1:6379' }, 'REDIS_URL'],
  ])('rejects %j naming %s', (env, name) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(new RegExp(name));
  });
});
