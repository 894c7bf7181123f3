import { AsyncLocalStorage } from 'node:async_hooks';
import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CommonErrorCode, Reply, failure, success } from '@consign/contracts';
import type { IncomingCommand } from '@consign/observability';
import { runPeriodically } from '@consign/core';

/** How long a service remembers a command id: at least as long as the gateway keeps a key. */
export const COMMAND_RETENTION_MS = 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** What the ledger holds of one command id. */
export interface CommandRecord {
  commandId: string;
  topic: string;
  fingerprint: string;
  state: 'completed' | 'expired';
  reply: Reply<unknown> | null;
}

/** Thrown inside the effect's transaction to undo it: the command id is already recorded. */
export class CommandAlreadyRecordedError extends Error {
  constructor(readonly commandId: string) {
    super(`command ${commandId} is already recorded`);
    this.name = 'CommandAlreadyRecordedError';
  }
}

/** Thrown inside the effect's transaction to undo it: its deadline passed before the commit. */
export class CommandExpiredError extends Error {
  constructor(readonly commandId: string) {
    super(`command ${commandId} passed its deadline`);
    this.name = 'CommandExpiredError';
  }
}

/** One command being carried out: what CommandLedger.transaction records. */
interface Execution {
  ledger: CommandLedger;
  command: IncomingCommand;
  fingerprint: string;
  recorded: boolean;
}

const executing = new AsyncLocalStorage<Execution>();

export interface CommandLedgerOptions {
  /** Test fault (CONSIGN_FAULT_SLOW_COMMAND): after this topic's command commits, wait before answering. */
  slowCommand?: { topic: string; delayMs: number };
  now?: () => number;
}

/**
 * Each command takes effect once. A command that creates or changes something carries an id (the
 * gateway's: one per HTTP request, the same on every retry with the same Idempotency-Key) and a
 * deadline. The owning service records the id with its reply in the same transaction as the
 * effect (`transaction`), so a redelivered command (a consumer that crashed before committing its
 * offset) or a retried one (a client's retry after a 504) finds the record and is answered with
 * the recorded reply instead of being carried out again. A command whose deadline has passed is
 * not started, and not committed, and is recorded as expired; a later retry of it (with a fresh
 * deadline) may still be carried out, once.
 *
 * The row is written at the end of the effect's transaction (one INSERT more per command); a
 * second execution of the same id (concurrent, or after the first committed) conflicts on the
 * primary key and is rolled back whole, then answered with the first one's reply. A refusal by the
 * service's rules (isFinalRefusal) is recorded as the command's reply too (recordRefusal). With an
 * Idempotency-Key, the id is derived from the merchant and the key, so this record is the key's
 * record: the gateway keeps none.
 */
export class CommandLedger {
  private readonly logger: Logger;
  private readonly table: string;
  private readonly now: () => number;
  private stopSweeping?: () => Promise<void>;

  constructor(
    private readonly dataSource: DataSource,
    schema: string,
    private readonly options: CommandLedgerOptions = {},
  ) {
    this.table = `"${schema}"."command_record"`;
    this.logger = new Logger(`CommandLedger:${schema}`);
    this.now = options.now ?? Date.now;
  }

  /** Whether the command's deadline has passed. */
  expired(command: IncomingCommand): boolean {
    return command.deadline !== undefined && this.now() > command.deadline;
  }

  /** Runs a use case as `command`: its `transaction` calls record the command with their effect. */
  execute<R>(
    command: IncomingCommand,
    fingerprint: string,
    work: () => Promise<R>,
  ): Promise<{ result: R; recorded: boolean }> {
    const execution: Execution = { ledger: this, command, fingerprint, recorded: false };
    return executing.run(execution, async () => {
      const result = await work();
      return { result, recorded: execution.recorded };
    });
  }

  /**
   * `dataSource.transaction(work)`, recording the command being executed (if any, and if it is
   * this service's) with `work`'s result as its reply, in the same transaction. A use case writes
   * its effect in one such transaction; outside a command it is a plain transaction.
   */
  async transaction<R>(work: (manager: EntityManager) => Promise<R>): Promise<R> {
    const execution = executing.getStore();
    if (!execution || execution.ledger !== this) return this.dataSource.transaction(work);
    if (execution.recorded)
      throw new Error(
        `command ${execution.command.id} (${execution.command.topic}) opened a second transaction: a command's effect is one transaction`,
      );
    execution.recorded = true;
    const { command, fingerprint } = execution;
    return this.dataSource.transaction(async (manager) => {
      const result = await work(manager);
      if (this.expired(command)) throw new CommandExpiredError(command.id);
      if (!(await this.record(manager, command, fingerprint, success(result))))
        throw new CommandAlreadyRecordedError(command.id);
      return result;
    });
  }

  /**
   * Records `reply` as the command's answer, unless the id is recorded already (an expired record
   * of the same request is completed); whether it was recorded.
   */
  private async record(
    db: Pick<EntityManager, 'query'>,
    command: IncomingCommand,
    fingerprint: string,
    reply: Reply<unknown>,
  ): Promise<boolean> {
    const rows: unknown[] = await db.query(
      `INSERT INTO ${this.table} AS r (command_id, topic, fingerprint, state, reply, recorded_at)
       VALUES ($1, $2, $3, 'completed', $4, $5)
       ON CONFLICT (command_id) DO UPDATE SET state = 'completed', reply = EXCLUDED.reply,
         recorded_at = EXCLUDED.recorded_at
       WHERE r.state = 'expired' AND r.topic = EXCLUDED.topic
         AND r.fingerprint = EXCLUDED.fingerprint
       RETURNING command_id`,
      [command.id, command.topic, fingerprint, JSON.stringify(reply), new Date(this.now())],
    );
    return rows.length > 0;
  }

  /**
   * Records a refusal by the service's rules (isFinalRefusal: nothing changed) as the command's
   * answer, so that a retry with the same Idempotency-Key gets it again instead of running anew.
   * Answers undefined when it was recorded, else what the record already there says (a concurrent
   * execution of the same command committed first).
   */
  async recordRefusal<R>(
    command: IncomingCommand,
    fingerprint: string,
    refusal: Reply<R>,
  ): Promise<Reply<R> | undefined> {
    if (await this.record(this.dataSource.manager, command, fingerprint, refusal)) return undefined;
    const record = await this.find(command.id);
    return record && this.answer<R>(record, command, fingerprint);
  }

  async find(commandId: string): Promise<CommandRecord | undefined> {
    const rows: {
      command_id: string;
      topic: string;
      fingerprint: string;
      state: 'completed' | 'expired';
      reply: Reply<unknown> | null;
    }[] = await this.dataSource.query(
      `SELECT command_id, topic, fingerprint, state, reply FROM ${this.table} WHERE command_id = $1`,
      [commandId],
    );
    const row = rows[0];
    return row
      ? {
          commandId: row.command_id,
          topic: row.topic,
          fingerprint: row.fingerprint,
          state: row.state,
          reply: row.reply,
        }
      : undefined;
  }

  /**
   * Records that the command was not carried out because its deadline passed, unless the id is
   * recorded already; answers what the record says (a completed command's reply) or the expiry.
   */
  async expire<R>(command: IncomingCommand, fingerprint: string): Promise<Reply<R>> {
    await this.dataSource.query(
      `INSERT INTO ${this.table} (command_id, topic, fingerprint, state, recorded_at)
       VALUES ($1, $2, $3, 'expired', $4) ON CONFLICT (command_id) DO NOTHING`,
      [command.id, command.topic, fingerprint, new Date(this.now())],
    );
    const record = await this.find(command.id);
    const answer = record && this.answer<R>(record, command, fingerprint);
    if (answer) return answer;
    this.logger.warn(`${command.topic} ${command.id} arrived after its deadline: not carried out`);
    return failure(
      CommonErrorCode.CommandExpired,
      'The request reached the service after its deadline and was not carried out; retry it with the same Idempotency-Key.',
    );
  }

  /**
   * The answer a recorded command gives a repeat of it: the recorded reply (a success, or a
   * refusal recorded by recordRefusal), or CommandReused when the id was used for another request
   * (another topic or payload: with a key, another request with the same Idempotency-Key);
   * undefined when the record holds no answer (expired).
   */
  answer<R>(
    record: CommandRecord,
    command: IncomingCommand,
    fingerprint: string,
  ): Reply<R> | undefined {
    if (record.topic !== command.topic || record.fingerprint !== fingerprint)
      return failure(
        CommonErrorCode.CommandReused,
        'This Idempotency-Key was already used for a different request.',
      );
    if (record.state === 'completed') return record.reply as Reply<R>;
    return undefined;
  }

  /** The reply delay of the slow-command test fault, for this command's topic (0: none). */
  replyDelayMs(command: IncomingCommand): number {
    const slow = this.options.slowCommand;
    return slow && slow.topic === command.topic ? slow.delayMs : 0;
  }

  /** Forgets commands older than the retention; returns how many. */
  async sweep(retentionMs = COMMAND_RETENTION_MS): Promise<number> {
    const rows: { command_id: string }[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM ${this.table} WHERE recorded_at < $1 RETURNING command_id)
       SELECT command_id FROM gone`,
      [new Date(this.now() - retentionMs)],
    );
    return rows.length;
  }

  start(): void {
    this.stopSweeping = runPeriodically(
      () => this.sweep(),
      SWEEP_INTERVAL_MS,
      (error: unknown) => this.logger.warn(`sweeping old command records failed: ${String(error)}`),
    );
  }

  stop(): void {
    void this.stopSweeping?.();
    this.stopSweeping = undefined;
  }
}

/**
 * The slow-command test fault: `CONSIGN_FAULT_SLOW_COMMAND=<topic>:<ms>` makes a service wait
 * `ms` after committing a command of `topic` before answering it (not when it answers a repeat
 * from its record), so that a test can see the gateway give up (504) on a command that was
 * carried out. Never set it in production.
 */
export function slowCommandFault(
  value: string | undefined,
): CommandLedgerOptions['slowCommand'] | undefined {
  if (value === undefined || value === '') return undefined;
  const match = /^([a-z0-9._-]+):(\d{1,6})$/.exec(value);
  if (!match)
    throw new Error(
      'CONSIGN_FAULT_SLOW_COMMAND must be <topic>:<milliseconds>, e.g. order.create.v1:3000',
    );
  return { topic: match[1], delayMs: Number(match[2]) };
}
