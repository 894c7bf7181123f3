import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { DatabaseHost } from './database-host';

class CreateCounter1700000000002 implements MigrationInterface {
  name = 'CreateCounter1700000000002';
  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = (queryRunner.connection.options as { schema: string }).schema;
    await queryRunner.query(`CREATE TABLE "${schema}"."counter" (id int PRIMARY KEY, n int)`);
    await queryRunner.query(`INSERT INTO "${schema}"."counter" VALUES (1, 0)`);
  }
  async down(): Promise<void> {}
}

const service = (name: string) => ({
  name,
  schema: `session_${name}`,
  entities: [],
  migrations: [CreateCounter1700000000002],
});

/**
 * Two services' DataSources over one embedded database behave like two connections to a real
 * server: neither sees the other's uncommitted work, and concurrent statements get their own
 * answers. Without the shared session both failed (the second connection's statements ran
 * inside the first one's transaction, and interleaved extended-protocol messages crossed).
 */
describe('the embedded database session', () => {
  let host: DatabaseHost;
  let one: DataSource;
  let two: DataSource;

  beforeAll(async () => {
    host = new DatabaseHost({ kind: 'pglite', dataDir: 'memory://' });
    one = await host.openServiceDataSource(service('one'));
    two = await host.openServiceDataSource(service('two'));
  });

  afterAll(async () => {
    await host.close();
  });

  it("keeps a transaction's uncommitted rows from another service's connection", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const didInsert = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = one.transaction(async (manager) => {
      await manager.query(`UPDATE "session_one"."counter" SET n = 99 WHERE id = 1`);
      inserted();
      await held;
      throw new Error('roll back');
    });
    await didInsert;
    // The other service's read waits for the transaction instead of running inside it.
    const read = two.query(`SELECT n FROM "session_one"."counter"`);
    release();
    await expect(transaction).rejects.toThrow('roll back');
    expect(await read).toEqual([{ n: 0 }]);
  });

  it('answers each of many concurrent statements from several services with its own result', async () => {
    const answers = await Promise.all(
      Array.from(
        { length: 60 },
        (_, i) => (i % 2 ? one : two).query(`SELECT $1::int AS i`, [i]) as Promise<{ i: number }[]>,
      ),
    );
    expect(answers.map((rows) => rows[0]?.i)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('runs concurrent transactions of two services one after the other, each atomic', async () => {
    const increments = (dataSource: DataSource, times: number) =>
      Promise.all(
        Array.from({ length: times }, () =>
          dataSource.transaction(async (manager) => {
            const [row] = (await manager.query(
              `SELECT n FROM "session_two"."counter" WHERE id = 1`,
            )) as { n: number }[];
            await manager.query(`UPDATE "session_two"."counter" SET n = $1 WHERE id = 1`, [
              row.n + 1,
            ]);
          }),
        ),
      );
    await Promise.all([increments(one, 20), increments(two, 20)]);
    expect(await one.query(`SELECT n FROM "session_two"."counter"`)).toEqual([{ n: 40 }]);
  });

  it('gives the session back when a statement fails, outside or inside a transaction', async () => {
    await expect(one.query('SELECT * FROM nowhere')).rejects.toThrow();
    await expect(
      two.transaction(async (manager) => {
        await manager.query('SELECT 1');
        await manager.query('SELECT * FROM nowhere');
      }),
    ).rejects.toThrow();
    expect(await one.query('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    expect(await two.query('SELECT 2 AS ok')).toEqual([{ ok: 2 }]);
  });
});
