export { DomainError } from './domain-error';
export { CLOCK, DAY_MS, FakeClock, systemClock } from './clock';
export type { Clock } from './clock';
export { PeriodicTask, runPeriodically } from './periodic';
