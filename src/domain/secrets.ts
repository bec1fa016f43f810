import { hash, randomInt } from 'node:crypto';

/**
 * Text with the passwords of any URLs in it masked (`user:***@host`, `?password=***`), also in
 * URLs too malformed to parse: what configuration errors and command messages may show.
 */
export function maskUrlPasswords(text: string): string {
  return text.replace(/:(?!\/)[^:@\s]*@/g, ':***@').replace(/([?&]password=)[^&#\s]*/gi, '$1***');
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters from the CSPRNG in [0-9A-Za-z] (43 carry 256 bits): the secret of keys and feed tokens. */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/**
 * What is stored instead of a secret of 256 random bits (API keys, calendar feed tokens): a fast
 * hash is right, as there is nothing to brute-force and every request looks its secret up.
 */
export function sha256Hex(text: string): string {
  // The one-shot hash: no Hash object per call (every keyed request hashes its key; issue 34).
  return hash('sha256', text, 'hex');
}
