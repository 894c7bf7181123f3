export * from './webhook-event-type';
export * from './webhook.limits';
export * from './create-webhook-request.dto';
export * from './webhook-view.dto';
