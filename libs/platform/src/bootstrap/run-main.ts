import { ConfigError } from '../config/app-config';

/** Runs an app's main: a configuration error exits 2 with its message, any other failure 1. */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(
      `${name} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
