import { COMMAND_DEADLINE_HEADER, COMMAND_ID_HEADER } from '@consign/contracts';
import type { IncomingCommand } from '@consign/observability';

/** What the sender of a command stamps on it: its id and its deadline (epoch ms). */
export interface CommandStamp {
  id: string;
  deadline: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value can be a command id: a UUID (what the gateway generates and services store). */
export function isCommandId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** The headers that carry a command's stamp on the bus (both transports). */
export function commandHeaders(stamp: CommandStamp): Record<string, string> {
  return {
    [COMMAND_ID_HEADER]: stamp.id,
    [COMMAND_DEADLINE_HEADER]: new Date(stamp.deadline).toISOString(),
  };
}

function headerText(headers: Record<string, unknown>, name: string): string | undefined {
  const value = headers[name];
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return typeof value === 'string' ? value : undefined;
}

/**
 * The command a consumed message carries (Kafka headers as strings or Buffers, or the in-process
 * transport's strings), or undefined when it has no well-formed command id. A deadline that does
 * not parse is treated as absent: the command is still deduplicated, only not timed.
 */
export function commandOfHeaders(headers: unknown, topic: string): IncomingCommand | undefined {
  if (headers === null || typeof headers !== 'object') return undefined;
  const values = headers as Record<string, unknown>;
  const id = headerText(values, COMMAND_ID_HEADER);
  if (!isCommandId(id)) return undefined;
  const deadline = Date.parse(headerText(values, COMMAND_DEADLINE_HEADER) ?? '');
  return Number.isFinite(deadline) ? { id, topic, deadline } : { id, topic };
}
