import { loadConfig } from '@consign/config';
import { databaseTargetOf } from './platform.module';

describe('databaseTargetOf', () => {
  it('gives PostgreSQL the pool size the settings ask for, 10 unless told', () => {
    const url = 'postgres://consign@db:5432/consign';
    expect(databaseTargetOf(loadConfig({ DATABASE_URL: url }))).toEqual({
      kind: 'postgres',
      url,
      poolSize: 10,
    });
    expect(
      databaseTargetOf(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '3' })),
    ).toMatchObject({ poolSize: 3 });
  });

  it('uses the embedded database under DATA_DIR without DATABASE_URL', () => {
    expect(databaseTargetOf(loadConfig({ DATA_DIR: '/var/lib/consign/' }))).toEqual({
      kind: 'pglite',
      dataDir: '/var/lib/consign/pgdata',
    });
  });
});
