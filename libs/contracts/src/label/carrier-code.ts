import { ValidateBy, ValidationOptions, buildMessage } from 'class-validator';
import { TRACKING_LIMITS } from './label.limits';

/**
 * A carrier code as carrier services name their carrier (`UPS`, `DHL`, `RM`): capital letters,
 * digits, `-` and `_`, starting with a letter or digit, at most 32 characters. Codes are compared
 * as written, so one carrier has one spelling everywhere (services, events, credentials).
 */
export const CARRIER_CODE_PATTERN = new RegExp(
  `^[A-Z0-9][A-Z0-9_-]{0,${TRACKING_LIMITS.carrier_code - 1}}$`,
);

export function isCarrierCode(value: unknown): value is string {
  return typeof value === 'string' && CARRIER_CODE_PATTERN.test(value);
}

export function IsCarrierCode(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCarrierCode',
      validator: {
        validate: (value: unknown) => isCarrierCode(value),
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must be a carrier code (capital letters, digits, - and _; at most ${TRACKING_LIMITS.carrier_code} characters)`,
          options,
        ),
      },
    },
    options,
  );
}
