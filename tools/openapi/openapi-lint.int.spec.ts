import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_JSON, findRepoRoot } from './generate-openapi';

const root = findRepoRoot(__dirname);
const run = promisify(execFile);
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

/** What a CLI printed, whatever its exit code (the linters exit 1 on a problem). */
async function output(command: string, args: string[]): Promise<string> {
  try {
    return (await run(command, args, { cwd: root, env, maxBuffer: 64 << 20 })).stdout;
  } catch (error) {
    return (error as { stdout?: string }).stdout ?? String(error);
  }
}

// The standard toolchain's verdict on docs/openapi.json: nothing to report, warnings included.
describe(`${OPENAPI_JSON} under the standard linters`, () => {
  it('has 0 errors and 0 warnings from Redocly CLI (recommended ruleset)', async () => {
    // No redocly.yaml: the built-in recommended ruleset. .redocly.lint-ignore.yaml says why
    // seven path pairs are not ambiguous.
    const report = JSON.parse(
      await output(bin('redocly'), ['lint', OPENAPI_JSON, '--format=json']),
    ) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map(({ ruleId, message }) => `${ruleId}: ${message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('has no finding at all from Spectral (spectral:oas ruleset)', async () => {
    const results = JSON.parse(
      await output(bin('spectral'), [
        'lint',
        OPENAPI_JSON,
        '--ruleset',
        '.spectral.yaml',
        '--format=json',
        '--fail-severity=hint',
        '--quiet',
      ]),
    ) as { code: string; message: string; path: string[] }[];
    expect(
      results.map(({ code, message, path }) => `${code} at ${path.join('.')}: ${message}`),
    ).toEqual([]);
  }, 60_000);
});
