/** Kafka headers as strings (kafkajs gives Buffers, or arrays of them). */
export function headersToStrings(
  headers: Record<string, Buffer | string | (Buffer | string)[] | undefined> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = last.toString();
  }
  return out;
}
