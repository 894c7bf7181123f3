export * from './gateway.module';
export * from './http/http-app';
export * from './http/api-docs';
export * from './http/api-error';
/** One definition, in the contracts (the admin API names roles too). */
export { ApiKeyRole } from '@consign/contracts';
export * from './auth/api-key.repository';
export * from './auth/merchant.repository';
export * from './auth/carrier-credential.repository';
export * from './auth/api-key.service';
export * from './auth/bootstrap-key.service';
export * from './auth/carrier-credential.service';
export * from './auth/gateway.database';
export * from './http/api-envelope';
export { MAX_PATH_PARAM_LENGTH } from './http/edge-rules';
export { default as openApiPluginMetadata } from './http/openapi-metadata.generated';
export * from './gateway.config';
