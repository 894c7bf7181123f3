export * from './inbound.module';
export * from './inbound.database';
export * from './inbound.service';
export * from './inbound-lifecycle.service';
export * from './inbound.transitions';
