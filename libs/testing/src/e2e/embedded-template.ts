import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_RUN_ENV } from '../database/test-database';
import { runAdminCli } from './admin';
import { tempDir } from './processes';

const TEMPLATE_PREFIX = 'consign-embedded-template-';
/** Older than any run: a template a killed run left behind. */
const ABANDONED_AFTER_MS = 6 * 60 * 60 * 1000;

/**
 * The embedded database the scenarios' standalone deployments start from, as the PostgreSQL ones
 * start from a clone of the run's migrated template: a data folder migrated once per test run by
 * the admin command's `migrate` (a deployment's migration step), then copied for each deployment.
 * On a fresh folder PGlite's initdb and the migrations take ≈ 6 s of the app's 9 s start; the
 * copy takes a tenth of a second. What a newcomer's first `npm start` meets, a fresh folder, is
 * still started from scratch: apps/e2e/src/standalone-embedded.e2e.spec.ts and
 * apps/admin/src/migrate.e2e.spec.ts. Undefined outside a jest run (no run id).
 */
export function embeddedTemplateDir(): string | undefined {
  const run = process.env[TEST_RUN_ENV];
  return run ? join(tmpdir(), `${TEMPLATE_PREFIX}${run}`) : undefined;
}

/**
 * Fills an empty data folder with a copy of the run's migrated embedded database, migrating it
 * first when this is the run's first (workers racing to make it: the first rename wins).
 */
export async function seedFromEmbeddedTemplate(dataDir: string): Promise<void> {
  const template = embeddedTemplateDir();
  if (!template) return;
  if (!existsSync(template)) {
    const partial = tempDir('embedded-template');
    try {
      const { code, stderr } = await runAdminCli({ DATA_DIR: partial }, ['migrate']);
      if (code !== 0) throw new Error(`admin migrate failed (${code}): ${stderr}`);
      renameSync(partial, template);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(template)) throw error;
    }
  }
  cpSync(template, dataDir, { recursive: true });
}

/**
 * Removes the run's embedded template, and any a killed run left behind (42 MB each): the
 * global teardown's.
 */
export function removeEmbeddedTemplate(): void {
  const template = embeddedTemplateDir();
  if (template) rmSync(template, { recursive: true, force: true });
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TEMPLATE_PREFIX)) continue;
    const path = join(tmpdir(), name);
    try {
      if (Date.now() - statSync(path).mtimeMs > ABANDONED_AFTER_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // Another run's teardown removed it meanwhile.
    }
  }
}
