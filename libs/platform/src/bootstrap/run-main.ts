import { ConfigError } from '../config/app-config';
import { DataDirInUseError } from '../database/data-dir-lock';

/**
 * Runs an app's main: a configuration error exits 2 with its message, an embedded database in use
 * by another process 3, any other failure 1.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof DataDirInUseError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(3);
    }
    process.stderr.write(
      `${name} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
