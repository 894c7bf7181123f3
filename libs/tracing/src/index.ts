export * from './tracing';
