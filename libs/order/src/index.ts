export * from './order.module';
export * from './order.database';
export * from './order.service';
export * from './order-lifecycle.service';
export * from './order.transitions';
