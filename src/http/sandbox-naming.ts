/** The sandbox twin of the read endpoints: its base path, its id prefix and its naming in the document. */

import { DEMO_ID_PREFIX } from '../domain/ids.js';

/** Where a set of read endpoints is served: the real API, or its sandbox twin over fake data. */
export type Base = '/v1' | '/v1/demo';

export const SANDBOX_BASE = '/v1/demo';

/** The id prefix of the data served under `base`. */
export function idPrefixOf(base: Base): string {
  return base === SANDBOX_BASE ? DEMO_ID_PREFIX : '';
}

interface OperationDocs {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
}

/** The Sandbox section of the document: what every sandbox twin shares. */
export const SANDBOX_TAG = {
  name: 'Sandbox',
  description: `Every read endpoint under /v1/demo, with the same parameters and answers, over a fixed, fake dataset (ids start with \`${DEMO_ID_PREFIX}\`, titles with "[Demo] ") that never touches real data. No key needed; the sandbox has its own per-address rate limit.`,
};

/**
 * The OpenAPI naming of an operation served under `base`: as written for /v1; for the sandbox twin
 * `demo`-prefixed operationIds (unique in the document), the Sandbox tag and a description saying
 * the data is fake.
 */
export function documented<S extends OperationDocs>(base: Base, schema: S): S {
  if (base !== SANDBOX_BASE) return schema;
  const name = schema.operationId;
  return {
    ...schema,
    operationId: `demo${name.charAt(0).toUpperCase()}${name.slice(1)}`,
    summary: `${schema.summary} (sandbox, fake data)`,
    // What every twin shares (fake data, no key, its own budget) is said once, in the Sandbox tag (SANDBOX_TAG).
    description: `Sandbox twin of ${name}.\n\n${schema.description}`,
    tags: ['Sandbox'],
  };
}
