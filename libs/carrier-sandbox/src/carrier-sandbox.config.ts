import { Transform } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min, Validate } from 'class-validator';
import {
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { parseScenarioWeights } from './sandbox-script';
import { toInt } from '@consign/config';

@ValidatorConstraint({ name: 'scenarioWeights' })
class ScenarioWeightsRule implements ValidatorConstraintInterface {
  private problem = '';

  validate(value: unknown): boolean {
    try {
      parseScenarioWeights(String(value));
      return true;
    } catch (error: unknown) {
      this.problem = error instanceof Error ? error.message : String(error);
      return false;
    }
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property}: ${this.problem} (e.g. delivered:65,failed_attempt:15,exception:10,pickup:5,returned:5)`;
  }
}

/** The carrier sandbox's settings (read with loadConfigOf; every one has a default). */
export class CarrierSandboxConfig {
  /** `on`: the standalone app runs the sandbox; `off`: it does not (real carriers report). */
  @Matches(/^(on|off)$/, { message: 'CARRIER_SANDBOX must be on or off' })
  CARRIER_SANDBOX = 'on';

  /** Time between two steps of a simulated parcel's life; the first comes within seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(86_400_000)
  CARRIER_SANDBOX_STEP_MS = 60_000;

  /** Which lifecycles parcels get, with weights: `name:weight,…`. */
  @IsString()
  @Validate(ScenarioWeightsRule)
  CARRIER_SANDBOX_SCENARIOS = 'delivered:65,failed_attempt:15,exception:10,pickup:5,returned:5';

  /** Carriers the sandbox plays: `*`, or carrier codes separated by commas. */
  @Matches(/^(\*|[A-Z0-9][A-Z0-9_-]{0,31}(,[A-Z0-9][A-Z0-9_-]{0,31})*)$/, {
    message: 'CARRIER_SANDBOX_CARRIERS must be * or carrier codes separated by commas',
  })
  CARRIER_SANDBOX_CARRIERS = '*';

  get enabled(): boolean {
    return this.CARRIER_SANDBOX === 'on';
  }

  /** The first step (the allocation) comes this long after a label is created. */
  get allocationDelayMs(): number {
    return Math.min(this.CARRIER_SANDBOX_STEP_MS, 2_000);
  }

  /** How often due steps are looked for. */
  get tickMs(): number {
    return Math.max(10, Math.min(Math.floor(this.CARRIER_SANDBOX_STEP_MS / 4), 1_000));
  }

  plays(carrierCode: string): boolean {
    return (
      this.CARRIER_SANDBOX_CARRIERS === '*' ||
      this.CARRIER_SANDBOX_CARRIERS.split(',').includes(carrierCode)
    );
  }
}
