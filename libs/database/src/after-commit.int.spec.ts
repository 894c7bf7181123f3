import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { Logger } from '@nestjs/common';
import { TestDatabase, createTestDatabase } from '@consign/testing';
import { afterCommit } from './after-commit';
import { DatabaseHost } from './database-host';

class CreateNote1700000000003 implements MigrationInterface {
  name = 'CreateNote1700000000003';
  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = (queryRunner.connection.options as { schema: string }).schema;
    await queryRunner.query(`CREATE TABLE "${schema}"."note" (id int PRIMARY KEY)`);
  }
  async down(): Promise<void> {}
}

describe.each([
  ['the tests’ database', false],
  ['the embedded database', true],
])('afterCommit (%s)', (_title, embedded) => {
  let database: TestDatabase;
  let host: DatabaseHost;
  let dataSource: DataSource;
  /** The work that ran, in order. */
  let ran: string[];

  beforeAll(async () => {
    database = await createTestDatabase({ embedded });
    host = new DatabaseHost(database.target);
    dataSource = await host.openServiceDataSource({
      name: 'after_commit',
      schema: 'after_commit_test',
      entities: [],
      migrations: [CreateNote1700000000003],
    });
  });

  afterAll(async () => {
    await host.close();
    await database.drop();
  });

  beforeEach(async () => {
    ran = [];
    await dataSource.query(`DELETE FROM "after_commit_test"."note"`);
  });

  const note = (id: number) => `INSERT INTO "after_commit_test"."note" (id) VALUES (${String(id)})`;

  it('runs the work once the transaction has committed, not before', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query(note(1));
      expect(afterCommit(manager, 'a', () => ran.push('a'))).toBe(true);
      await manager.query('SELECT 1');
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['a']);
  });

  it('waits for the outermost commit: a savepoint released is not one', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.transaction(async (inner) => {
        await inner.query(note(2));
        afterCommit(inner, 'inner', () => ran.push('inner'));
      });
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['inner']);
  });

  it('never runs the work of a transaction that rolls back, even when its runner commits next', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.query(note(3));
      afterCommit(runner.manager, 'lost', () => ran.push('lost'));
      await runner.rollbackTransaction();
      await runner.startTransaction();
      await runner.query(note(4));
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    expect(ran).toEqual([]);
  });

  it('keeps the outer transaction’s work when a savepoint inside it rolls back', async () => {
    await dataSource.transaction(async (manager) => {
      afterCommit(manager, 'outer', () => ran.push('outer'));
      await expect(
        manager.transaction(async (inner) => {
          await inner.query(note(5));
          throw new Error('roll back the savepoint');
        }),
      ).rejects.toThrow('roll back the savepoint');
    });
    expect(ran).toEqual(['outer']);
  });

  it('runs the work noted under one key once, the first noted', async () => {
    await dataSource.transaction(async (manager) => {
      afterCommit(manager, 'key', () => ran.push('first'));
      afterCommit(manager, 'key', () => ran.push('second'));
      afterCommit(manager, 'other', () => ran.push('other'));
    });
    expect(ran).toEqual(['first', 'other']);
  });

  it('keeps nothing outside a transaction: the caller does the work itself', async () => {
    expect(afterCommit(dataSource.manager, 'none', () => ran.push('none'))).toBe(false);
    await dataSource.transaction((manager) => manager.query(note(6)));
    expect(ran).toEqual([]);
  });

  it('a work that throws fails neither the commit nor the work after it', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      await dataSource.transaction(async (manager) => {
        await manager.query(note(7));
        afterCommit(manager, 'throws', () => {
          throw new Error('broken');
        });
        afterCommit(manager, 'next', () => ran.push('next'));
      });
      expect(ran).toEqual(['next']);
      expect(logged).toHaveBeenCalledWith(expect.stringContaining('broken'));
      const rows = await dataSource.query<{ id: number }[]>(
        `SELECT id FROM "after_commit_test"."note"`,
      );
      expect(rows.map((row) => row.id)).toEqual([7]);
    } finally {
      logged.mockRestore();
    }
  });
});
