export * from './order.limits';
export * from './order-status';
export * from './sku-item.dto';
export * from './order-service.dto';
export * from './create-order-request.dto';
export * from './order-view.dto';
export * from './order-tracking-view.dto';
export * from './order-operations.dto';
