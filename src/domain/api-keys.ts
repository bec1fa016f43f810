import { crc32 } from 'node:zlib';
import { randomBase62, sha256Hex } from './secrets.js';

/** Every key starts with this, so people and secret scanners recognise one (like sk_ or ghp_). */
export const API_KEY_PREFIX = 'kmp_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry 256 bits: more than the 32 random bytes asked for. */
const SECRET_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, length: number): string {
  let out = '';
  for (let v = value, i = 0; i < length; i++, v = Math.floor(v / 62)) out = ALPHABET[v % 62] + out;
  return out;
}

/**
 * A new key: prefix, 43 characters from the CSPRNG and a CRC32 checksum (as GitHub's tokens have)
 * so a mistyped key is recognised without a database lookup.
 */
export function generateApiKey(): string {
  const secret = randomBase62(SECRET_LENGTH);
  return `${API_KEY_PREFIX}${secret}${base62(crc32(secret), CHECKSUM_LENGTH)}`;
}

/** Whether a string has the shape and checksum of a key this service issued. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const secret = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + SECRET_LENGTH);
  return key.endsWith(base62(crc32(secret), CHECKSUM_LENGTH));
}

/**
 * Anything in a text that looks like a key: the prefix (also as `kmp%5F`) with the characters
 * after it, however many (a truncated or mistyped key is nearly the key), or 49 characters bare
 * whose last six are the checksum of the first 43 (a key sent without its prefix).
 */
const KEY_LIKE = new RegExp(
  // The prefix without its '_', which may come percent-encoded.
  `${API_KEY_PREFIX.slice(0, -1)}(?:_|%5F)[0-9A-Za-z]+|(?<![0-9A-Za-z])[0-9A-Za-z]{${SECRET_LENGTH + CHECKSUM_LENGTH}}(?![0-9A-Za-z])`,
  'gi',
);

/** The text with every key in it replaced by [redacted]: for logged URLs and echoed input. */
export function redactApiKeys(text: string): string {
  return text.replace(KEY_LIKE, (found) =>
    /^kmp/i.test(found) || isWellFormedApiKey(`${API_KEY_PREFIX}${found}`) ? '[redacted]' : found,
  );
}

/** What is stored instead of the key (secrets.ts sha256Hex: 256 random bits need no slow hash). */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** How a key is shown after it was issued: never more than its last four characters. */
export function maskedKey(last4: string): string {
  return `${API_KEY_PREFIX}...${last4}`;
}
