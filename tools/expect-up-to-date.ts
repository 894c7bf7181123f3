import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * For the staleness tests of checked-in generated files: fails, naming the first differing line
 * and the command that regenerates the file, when `generated` differs from the file under `root`.
 */
export function expectUpToDate(
  root: string,
  file: string,
  generated: string,
  regenerate: string,
): void {
  const checkedIn = readFileSync(join(root, file), 'utf8');
  if (checkedIn === generated) return;
  const want = generated.split('\n');
  const have = checkedIn.split('\n');
  const line = want.findIndex((text, i) => text !== have[i]);
  throw new Error(
    `${file} is out of date: run \`${regenerate}\` and commit the result.\n` +
      `First difference at line ${line + 1}:\n` +
      `  checked in: ${have[line] ?? '(end of file)'}\n` +
      `  generated:  ${want[line] ?? '(end of file)'}`,
  );
}
