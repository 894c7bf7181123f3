/** `--name value` from the command line, or `fallback`. */
export function argText(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

/** `--name value` from the command line as a number, or `fallback`. */
export function argNumber(name: string, fallback: number): number {
  return Number(argText(name, String(fallback)));
}

/** Every `--name value` from the command line, in order (a flag given more than once). */
export function argTexts(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === `--${name}` ? [process.argv[i + 1]] : []));
}

/** The median of a non-empty list (the mean of the two middle values of an even one). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
