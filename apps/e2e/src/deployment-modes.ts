import { Deployment, startDistributed, startStandalone } from '@consign/testing';

export interface DeploymentOptions {
  /** Environment of every process of the deployment. */
  env?: Record<string, string>;
}

/** Every way Consign is deployed; each HTTP scenario runs against all of them. */
export const DEPLOYMENT_MODES: [string, (options?: DeploymentOptions) => Promise<Deployment>][] = [
  ['standalone', (options) => startStandalone(options)],
  ['distributed', (options) => startDistributed(options)],
];
