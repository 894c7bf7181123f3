import { Deployment, startDistributed, startStandalone } from '@consign/testing';

/** Every way Consign is deployed; each HTTP scenario runs against all of them. */
export const DEPLOYMENT_MODES: [string, () => Promise<Deployment>][] = [
  ['standalone', () => startStandalone()],
  ['distributed', () => startDistributed()],
];
