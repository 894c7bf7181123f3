import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';

/**
 * Number(12,2): at most 12 digits in total, of which at most 2 after the decimal point.
 * Judged on the number's shortest round-trip text (what JSON.parse produced), so 0.1 + 0.2 style
 * artefacts and exponent forms are refused rather than silently rounded.
 */
export const DECIMAL_12_2 = { precision: 12, scale: 2 } as const;

const DECIMAL_TEXT = /^-?(\d+)(?:\.(\d+))?$/;

export function isDecimal(value: unknown, precision: number, scale: number): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  const match = DECIMAL_TEXT.exec(String(value));
  if (!match) return false;
  const integerDigits = match[1] === '0' ? 0 : match[1].length;
  const fractionDigits = match[2]?.length ?? 0;
  return fractionDigits <= scale && integerDigits <= precision - scale;
}

/** Number(precision, scale), by default Number(12,2). */
export function IsDecimal(
  precision: number = DECIMAL_12_2.precision,
  scale: number = DECIMAL_12_2.scale,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDecimal',
      constraints: [precision, scale],
      validator: {
        validate: (value: unknown) => isDecimal(value, precision, scale),
        defaultMessage: buildMessage(
          () =>
            `$property must be a number with at most ${precision} digits, ${scale} of them decimals`,
          options,
        ),
      },
    },
    options,
  );
}
