import { Logger } from '@nestjs/common';
import { ConfigError } from '@consign/config';
import { DataDirInUseError } from '@consign/database';

/**
 * Runs an app's main: a configuration error exits 2 with its message, an embedded database in use
 * by another process 3, any other failure 1. Once running, a rejected Kafka call that nothing
 * awaited (kafkajs rejects its internal promises when the broker is unreachable) is logged, not
 * fatal: the consumers are supervised and producers reconnect on their next send, so a broker
 * outage of any length is ridden out. Any other unhandled rejection is thrown on, as an uncaught
 * exception: what Node does with it when no one listens for unhandled rejections.
 */
export function runMain(name: string, main: () => Promise<void>): void {
  process.on('unhandledRejection', (reason: unknown) => {
    if (isKafkaError(reason)) {
      new Logger(name).warn(
        `unawaited Kafka failure, carrying on: ${reason.name}: ${reason.message}`,
      );
      return;
    }
    throw reason;
  });
  main().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof DataDirInUseError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(3);
    }
    process.stderr.write(`${name} failed to start: ${describe(error)}\n`);
    process.exit(1);
  });
}

/** kafkajs' errors all derive from KafkaJSError and carry its name prefix. */
export function isKafkaError(reason: unknown): reason is Error {
  return reason instanceof Error && reason.name.startsWith('KafkaJS');
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
