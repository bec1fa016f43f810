import { randomBytes } from 'node:crypto';

/** A new random id with a type prefix (`acc_`, `key_`, `kr_` ...): 64 random bits, lower-case hex. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}
