import { DataSource } from 'typeorm';
import { DatabaseHost } from '@consign/database';
import { GatewayConfig } from '../gateway.config';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';
import { CarrierCredentialService } from './carrier-credential.service';
import { RevocationWatcher } from './revocation-watcher';

/** A watcher over a repository that only counts its looks, on a host of the given kind. */
function watcherOn(target: DatabaseHost['target']): {
  watcher: RevocationWatcher;
  looks: () => number;
} {
  let looks = 0;
  const repository = {
    changedSince: async () => {
      looks++;
      return { now: new Date(), keys: null, credentials: null };
    },
  } as unknown as ApiKeyRepository;
  const cache = { forget: () => undefined, forgetAll: () => undefined };
  const config = Object.assign(new GatewayConfig(), { KEY_REVOCATION_POLL_MS: 10 });
  const watcher = new RevocationWatcher(
    {} as DataSource,
    cache as unknown as ApiKeyService,
    cache as unknown as CarrierCredentialService,
    config,
    repository,
    new DatabaseHost(target),
  );
  return { watcher, looks: () => looks };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RevocationWatcher', () => {
  it.each<[string, DatabaseHost['target'], boolean]>([
    [
      'reads what changed every KEY_REVOCATION_POLL_MS on PostgreSQL (other processes write there)',
      { kind: 'postgres', url: 'postgres://nowhere/none' },
      true,
    ],
    [
      'does not poll the embedded database: no other process can change a key there',
      { kind: 'pglite', dataDir: 'memory://' },
      false,
    ],
  ])('%s', async (_title, target, polls) => {
    const { watcher, looks } = watcherOn(target);
    await watcher.onApplicationBootstrap();
    await pause(100);
    await watcher.onApplicationShutdown();
    if (polls) expect(looks()).toBeGreaterThan(1);
    else expect(looks()).toBe(0);
  });
});
