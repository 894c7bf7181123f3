import { CheckpointStatus } from '@consign/contracts';

/** A stage of a simulated parcel's life, told in each carrier's own codes and words. */
export enum SandboxStep {
  Allocated = 'allocated',
  PickedUp = 'picked_up',
  DepartedOrigin = 'departed_origin',
  ArrivedHub = 'arrived_hub',
  ArrivedDeliveryDepot = 'arrived_delivery_depot',
  CustomsHeld = 'customs_held',
  CustomsReleased = 'customs_released',
  OutForDelivery = 'out_for_delivery',
  AttemptFailed = 'attempt_failed',
  AvailableForPickup = 'available_for_pickup',
  Delivered = 'delivered',
  Returned = 'returned',
}

/** What each step must normalise to: the sandbox's intent, checked against the carrier tables. */
export const STEP_STATUS: Record<SandboxStep, CheckpointStatus> = {
  [SandboxStep.Allocated]: CheckpointStatus.InformationReceived,
  [SandboxStep.PickedUp]: CheckpointStatus.InTransit,
  [SandboxStep.DepartedOrigin]: CheckpointStatus.InTransit,
  [SandboxStep.ArrivedHub]: CheckpointStatus.InTransit,
  [SandboxStep.ArrivedDeliveryDepot]: CheckpointStatus.InTransit,
  [SandboxStep.CustomsHeld]: CheckpointStatus.Exception,
  [SandboxStep.CustomsReleased]: CheckpointStatus.InTransit,
  [SandboxStep.OutForDelivery]: CheckpointStatus.OutForDelivery,
  [SandboxStep.AttemptFailed]: CheckpointStatus.DeliveryAttemptFailed,
  [SandboxStep.AvailableForPickup]: CheckpointStatus.AvailableForPickup,
  [SandboxStep.Delivered]: CheckpointStatus.Delivered,
  [SandboxStep.Returned]: CheckpointStatus.Exception,
};

/** The lifecycles the sandbox plays; each starts with the allocation. */
export enum SandboxScenario {
  Delivered = 'delivered',
  FailedAttempt = 'failed_attempt',
  Exception = 'exception',
  Pickup = 'pickup',
  Returned = 'returned',
}

const S = SandboxStep;
export const SCENARIO_STEPS: Record<SandboxScenario, readonly SandboxStep[]> = {
  [SandboxScenario.Delivered]: [
    S.Allocated,
    S.PickedUp,
    S.DepartedOrigin,
    S.ArrivedHub,
    S.ArrivedDeliveryDepot,
    S.OutForDelivery,
    S.Delivered,
  ],
  [SandboxScenario.FailedAttempt]: [
    S.Allocated,
    S.PickedUp,
    S.ArrivedHub,
    S.ArrivedDeliveryDepot,
    S.OutForDelivery,
    S.AttemptFailed,
    S.OutForDelivery,
    S.Delivered,
  ],
  [SandboxScenario.Exception]: [
    S.Allocated,
    S.PickedUp,
    S.ArrivedHub,
    S.CustomsHeld,
    S.CustomsReleased,
    S.OutForDelivery,
    S.Delivered,
  ],
  [SandboxScenario.Pickup]: [
    S.Allocated,
    S.PickedUp,
    S.ArrivedHub,
    S.AvailableForPickup,
    S.Delivered,
  ],
  [SandboxScenario.Returned]: [
    S.Allocated,
    S.PickedUp,
    S.ArrivedHub,
    S.OutForDelivery,
    S.AttemptFailed,
    S.Returned,
  ],
};

export type ScenarioWeights = [SandboxScenario, number][];

/** `delivered:65,failed_attempt:15` → weights; throws naming what is wrong. */
export function parseScenarioWeights(text: string): ScenarioWeights {
  const known = Object.values(SandboxScenario) as string[];
  const weights = text.split(',').map((part): [SandboxScenario, number] => {
    const [name, weight = '1'] = part.trim().split(':');
    if (!known.includes(name)) throw new Error(`unknown scenario "${name}"`);
    if (!/^\d+$/.test(weight) || Number(weight) === 0)
      throw new Error(`weight of ${name} must be a positive integer`);
    return [name as SandboxScenario, Number(weight)];
  });
  return weights;
}

/** A parcel's scenario: a stable pick from its id, in proportion to the weights. */
export function scenarioOf(parcelId: number, weights: ScenarioWeights): SandboxScenario {
  const total = weights.reduce((sum, [, weight]) => sum + weight, 0);
  // Knuth's multiplicative hash spreads consecutive ids over the range.
  let point = (Math.imul(parcelId, 2654435761) >>> 0) % total;
  for (const [scenario, weight] of weights) {
    if (point < weight) return scenario;
    point -= weight;
  }
  return weights[weights.length - 1][0];
}
