/** Terminus' HealthCheckService, by token: the class is loaded at run time (see healthModule). */
export const HEALTH_CHECKS = Symbol('HEALTH_CHECKS');
/** Terminus' HealthIndicatorService, by token (see HEALTH_CHECKS). */
export const HEALTH_INDICATORS = Symbol('HEALTH_INDICATORS');
