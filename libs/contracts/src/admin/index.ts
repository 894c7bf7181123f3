export * from './admin.limits';
export * from './admin-request.dto';
export * from './admin-view.dto';
