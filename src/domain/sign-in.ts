import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { randomBase62, sha256Hex } from './secrets.js';

/** How long an e-mailed code works, and how many wrong tries end it (issue 31). */
export const CODE_TTL_MINUTES = 10;
export const CODE_MAX_TRIES = 5;
/** A session ends this long after sign-in whatever happens, or after this long unused. */
export const SESSION_DAYS = 30;
export const SESSION_IDLE_DAYS = 7;
/** A session's last use is written at most this often (each write ends the reuse of cached answers). */
export const SESSION_TOUCH_MS = 5 * 60_000;

const TOKEN_LENGTH = 43;
const TOKEN_PATTERN = /^[0-9A-Za-z]{43}$/;

/** A browser's secret (session or sign-in challenge): 256 random bits, kept only in its cookie. */
export const newBrowserToken = (): string => randomBase62(TOKEN_LENGTH);

/** What is stored of a browser token; undefined for anything that cannot be one (nothing to look up). */
export function browserTokenHash(token: string | undefined): string | undefined {
  return token !== undefined && TOKEN_PATTERN.test(token) ? sha256Hex(token) : undefined;
}

/** Six digits from the CSPRNG, leading zeros kept. */
export const newCode = (): string => String(randomInt(1_000_000)).padStart(6, '0');

/**
 * What is stored of a code: an HMAC keyed by the challenge token the browser holds, so that the
 * million possible codes cannot be tried against a copy of the database alone.
 */
export const codeHash = (challenge: string, code: string): string =>
  createHmac('sha256', challenge).update(code).digest('hex');

/** Whether `code` is the one `stored` was made from, in constant time. */
export function codeMatches(challenge: string, code: string, stored: string): boolean {
  const given = Buffer.from(codeHash(challenge, code), 'hex');
  const kept = Buffer.from(stored, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/** A typed code as people enter it: spaces and dashes ignored ("123 456"); undefined unless six digits. */
export function typedCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const digits = value.replace(/[\s-]/g, '');
  return /^[0-9]{6}$/.test(digits) ? digits : undefined;
}
