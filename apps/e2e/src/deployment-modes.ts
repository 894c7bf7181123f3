import { Deployment, startDistributed, startStandalone } from '@consign/testing';

export interface DeploymentOptions {
  /** Environment of every process of the deployment. */
  env?: Record<string, string>;
}

/**
 * Every way Consign is deployed; each HTTP scenario runs against all of them. The embedded
 * database is what `npm start` runs, and PGlite serialises transactions on one connection, so a
 * flow that works on PostgreSQL can still hang there: it gets its own run.
 */
export const DEPLOYMENT_MODES: [string, (options?: DeploymentOptions) => Promise<Deployment>][] = [
  ['standalone-embedded', (options) => startStandalone({ ...options, embedded: true })],
  ['standalone-postgres', (options) => startStandalone(options)],
  ['distributed', (options) => startDistributed(options)],
];
