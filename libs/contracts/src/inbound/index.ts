export * from './inbound.limits';
export * from './inbound-status';
export * from './inbound-item-request.dto';
export * from './create-inbound-request.dto';
export * from './inbound-order-view.dto';
export * from './inbound-operations.dto';
