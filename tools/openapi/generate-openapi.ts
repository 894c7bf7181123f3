import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENAPI_JSON, buildOpenApiDocument, serializeOpenApiDocument } from './openapi-document';
import { CLIENT_TYPES_FILE, generateClientTypes } from './client-types';
import { METADATA_FILE, findRepoRoot, generatePluginMetadataSource } from './plugin-metadata';

export * from './openapi-document';
export * from './plugin-metadata';
export * from './client-types';

const SECOND_PASS = 'CONSIGN_OPENAPI_SECOND_PASS';

function writeIfChanged(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  writeFileSync(file, text);
  return true;
}

/**
 * `npm run openapi`: regenerates the CLI plugin's metadata from the contracts and controllers, then
 * docs/openapi.json from the gateway. When the metadata changed, the build is stale: it rebuilds and
 * runs again so that the document is made from the new metadata. Then the generated client's types
 * (openapi-typescript) from the document.
 */
async function main(): Promise<void> {
  const root = findRepoRoot(__dirname);
  const metadata = await generatePluginMetadataSource(root);
  if (writeIfChanged(join(root, METADATA_FILE), metadata)) {
    if (process.env[SECOND_PASS]) throw new Error(`${METADATA_FILE} is not stable across runs`);
    process.stdout.write(`wrote ${METADATA_FILE}; rebuilding\n`);
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    execFileSync(process.execPath, [__filename], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, [SECOND_PASS]: '1' },
    });
    return;
  }
  const document = serializeOpenApiDocument(await buildOpenApiDocument({ root }));
  const changed = writeIfChanged(join(root, OPENAPI_JSON), document);
  process.stdout.write(`${OPENAPI_JSON} ${changed ? 'written' : 'is up to date'}\n`);
  const types = writeIfChanged(join(root, CLIENT_TYPES_FILE), await generateClientTypes(root));
  process.stdout.write(`${CLIENT_TYPES_FILE} ${types ? 'written' : 'is up to date'}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  });
}
