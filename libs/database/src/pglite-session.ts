import { Logger } from '@nestjs/common';
import type { PGlite } from '@electric-sql/pglite';
import { PglitePgConnection } from '@electric-sql/pglite/node-postgres';

/** How long a connection may wait for the session before the wait is logged (once per wait). */
const SLOW_WAIT_MS = 5_000;

/**
 * The one backend session of a PGlite instance, taken in turn by the connections that share it.
 *
 * PGlite is a single Postgres backend. Its node-postgres adapter gives every pg connection its own
 * message queue but passes the wire-protocol messages of all of them to that one backend with no
 * exclusion: a second service's statements then run inside the first one's open transaction
 * (seeing its uncommitted rows, committing or rolling back its work), and interleaved
 * Parse/Bind/Execute/Sync messages answer one connection's query to another or leave a client
 * waiting forever for a reply another consumed. That is what wedged the catalog after an order
 * shipped: two services consume `order.shipped.v1` at the same moment.
 *
 * So a connection takes the session before its first message and keeps it until the backend says
 * it is idle outside a transaction (ReadyForQuery with status `I`): a whole transaction, or one
 * statement, runs alone, as on a real server where each connection has its own backend. A
 * connection waiting while another holds the session inside a transaction waits for that
 * transaction to end — so no code may use a second connection while its transaction is open
 * (ARCHITECTURE.md); a wait that long is logged with the holder's name.
 */
export class PgliteSession {
  private readonly logger = new Logger('EmbeddedDatabase');
  private holder?: SessionConnection;
  private readonly waiting: { connection: SessionConnection; grant: () => void }[] = [];

  constructor(readonly pglite: PGlite) {}

  /** A pg connection (for a Pool's `connection` option) that takes this session in turn. */
  connection(name: string): PglitePgConnection {
    return new SessionConnection(this, name);
  }

  /** Resolves once `connection` holds the session. */
  acquire(connection: SessionConnection): Promise<void> {
    if (!this.holder) {
      this.holder = connection;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const since = Date.now();
      const slow = setTimeout(() => {
        this.logger.warn(
          `${connection.name} has waited ${Date.now() - since} ms for the embedded database, held by ${this.holder?.name ?? 'nobody'}`,
        );
      }, SLOW_WAIT_MS);
      slow.unref();
      this.waiting.push({
        connection,
        grant: () => {
          clearTimeout(slow);
          resolve();
        },
      });
    });
  }

  release(connection: SessionConnection): void {
    if (this.holder !== connection) {
      // An ended connection that was still waiting gives its place up.
      const index = this.waiting.findIndex((w) => w.connection === connection);
      if (index >= 0) this.waiting.splice(index, 1);
      return;
    }
    const next = this.waiting.shift();
    this.holder = next?.connection;
    next?.grant();
  }

  /** Which connection holds the session now (for tests and diagnostics). */
  get heldBy(): string | undefined {
    return this.holder?.name;
  }
}

type Send = () => void;

/**
 * PGlite's pg connection, with every outgoing message gated by the shared session: messages sent
 * while the session is held by another connection are kept, in order, and sent once it is ours.
 */
class SessionConnection extends PglitePgConnection {
  private holding = false;
  private acquiring = false;
  private readonly pending: Send[] = [];

  constructor(
    private readonly session: PgliteSession,
    readonly name: string,
  ) {
    super({ pglite: session.pglite });
  }

  private gate(send: Send): void {
    if (this.holding) return send();
    this.pending.push(send);
    if (this.acquiring) return;
    this.acquiring = true;
    void this.session.acquire(this).then(() => {
      this.acquiring = false;
      this.holding = true;
      for (const queued of this.pending.splice(0)) queued();
    });
  }

  private letGo(): void {
    this.pending.length = 0;
    if (this.holding || this.acquiring) {
      this.holding = false;
      this.acquiring = false;
      this.session.release(this);
    }
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    // Released before the client hears it: its next query, sent from this very event, must
    // queue for the session like any other connection's.
    if (event === 'readyForQuery' && this.holding && readyStatus(args[0]) === 'I') {
      this.holding = false;
      this.session.release(this);
    } else if (event === 'error') {
      this.letGo();
    }
    return super.emit(event, ...args);
  }

  override end(): void {
    this.letGo();
    super.end();
  }

  override query(text: string): void {
    this.gate(() => super.query(text));
  }
  override parse(query: unknown): void {
    this.gate(() => super.parse(query));
  }
  override bind(config: unknown): void {
    this.gate(() => super.bind(config));
  }
  override execute(config: unknown): void {
    this.gate(() => super.execute(config));
  }
  override describe(msg: unknown): void {
    this.gate(() => super.describe(msg));
  }
  override close(msg: unknown): void {
    this.gate(() => super.close(msg));
  }
  override flush(): void {
    this.gate(() => super.flush());
  }
  override sync(): void {
    this.gate(() => super.sync());
  }
  override sendCopyFromChunk(chunk: unknown): void {
    this.gate(() => super.sendCopyFromChunk(chunk));
  }
  override endCopyFrom(): void {
    this.gate(() => super.endCopyFrom());
  }
  override sendCopyFail(msg: unknown): void {
    this.gate(() => super.sendCopyFail(msg));
  }
}

/** The transaction status of a ReadyForQuery message: `I` idle, `T` in a transaction, `E` failed. */
function readyStatus(message: unknown): string | undefined {
  return typeof message === 'object' && message !== null
    ? (message as { status?: unknown }).status?.toString()
    : undefined;
}
