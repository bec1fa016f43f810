import { randomBytes } from 'node:crypto';

/** A new random id with a type prefix (`acc_`, `key_`, `kr_` ...): 64 random bits, lower-case hex. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** Ids of the sandbox's fake data start with this (demo_job_..., demo_lst_...): never a real id. */
export const DEMO_ID_PREFIX = 'demo_';
