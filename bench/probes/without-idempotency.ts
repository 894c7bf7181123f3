/*
 * A probe for the create-order benchmark (`--baseline`), preloaded into a second app with
 *   NODE_OPTIONS="--require <repo>/dist/bench/probes/without-idempotency.js"
 * It takes out of that app what issue 12's idempotency and hostile-input checks added to a
 * create, so that one run measures the app with them against the same app without them:
 *
 * - the command ledger: a service carries a command out without the fingerprint of its payload
 *   and without the `command_record` INSERT in the effect's transaction
 *   (CommandLedger.execute runs the use case, CommandLedger.transaction is the DataSource's);
 * - the hostile-input sweep (hostileInputProblems finds nothing), at the gateway's edge and in
 *   the services' contract checks.
 *
 * The gateway's Idempotency-Key path needs no probe: the baseline sends no key, and a request
 * without one does not touch it. Still in the baseline: the contracts' field rules (lengths, ISO
 * lists), which no switch can take out of class-validator's decorators.
 *
 * For benchmarks only: an app with this probe answers a retried command twice.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const Module = require('node:module') as {
  _load: (request: string, parent: unknown, isMain: boolean) => unknown;
  _resolveFilename: (request: string, parent: unknown, isMain: boolean) => string;
};

interface LedgerClass {
  prototype: {
    execute: (command: unknown, fingerprint: string, work: () => Promise<unknown>) => unknown;
    transaction: (work: (manager: unknown) => Promise<unknown>) => Promise<unknown>;
  };
}

interface DataSourceLike {
  transaction: (work: (manager: unknown) => Promise<unknown>) => Promise<unknown>;
}

const patched = new Map<string, unknown>();

/** The replacement exports of a module of ours, by the end of its built path. */
const replacements: Record<string, (exports: Record<string, unknown>) => unknown> = {
  '/libs/messaging/src/command-ledger.js': (exports) => {
    const ledger = exports.CommandLedger as LedgerClass;
    ledger.prototype.execute = async (_command, _fingerprint, work) => ({
      result: await work(),
      recorded: true,
    });
    ledger.prototype.transaction = function (this: { dataSource: DataSourceLike }, work) {
      return this.dataSource.transaction(work);
    };
    return exports;
  },
  '/libs/messaging/src/fingerprint.js': (exports) => ({
    ...exports,
    requestFingerprint: () => '',
  }),
  '/libs/contracts/src/common/input-limits.js': (exports) => ({
    ...exports,
    hostileInputProblems: () => [],
  }),
};

const load = Module._load;
Module._load = function loadWithoutIdempotency(request, parent, isMain) {
  const exports = load.call(this, request, parent, isMain);
  if (!request.startsWith('.') && !request.startsWith('/')) return exports;
  const file = Module._resolveFilename(request, parent, isMain);
  const suffix = Object.keys(replacements).find((end) => file.endsWith(end));
  if (!suffix) return exports;
  if (!patched.has(file))
    patched.set(file, replacements[suffix](exports as Record<string, unknown>));
  return patched.get(file);
};
