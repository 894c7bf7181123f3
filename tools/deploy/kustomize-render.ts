import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from './topology';

/** Debian's kubectl renders Kustomize offline; the PATH's kubectl otherwise. */
export const KUBECTL = [
  '/usr/bin/kubectl',
  ...(process.env.PATH ?? '').split(':').map((dir) => join(dir, 'kubectl')),
].find((path) => existsSync(path));

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  // Each kind's fields are read through the typed views of the specs.
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
}

/** The objects `kubectl kustomize k8s/overlays/<overlay>` renders. */
export function renderOverlay(overlay: string): K8sObject[] {
  const output = execFileSync(KUBECTL!, ['kustomize', join(REPO_ROOT, 'k8s/overlays', overlay)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return parseAllDocuments(output).map((document) => {
    if (document.errors.length) throw document.errors[0];
    return document.toJS() as K8sObject;
  });
}
