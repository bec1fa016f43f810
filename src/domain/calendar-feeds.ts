import { createHash } from 'node:crypto';
import { redactApiKeys } from './api-keys.js';
import { addDays } from './booking-price.js';
import { redactDraftTokens } from './drafts.js';
import { randomBase62, sha256Hex } from './secrets.js';

/** A private feed's token starts with this, so people and log redaction recognise one. */
export const FEED_TOKEN_PREFIX = 'cal_';
/** 43 base62 characters carry 256 bits, as an API key's secret does. */
const SECRET_LENGTH = 43;
const TOKEN_PATTERN = new RegExp(`^${FEED_TOKEN_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);
/** Anything after the prefix (its '_' also as %5F), however mangled: a truncated token is nearly the token. */
const TOKEN_LIKE = new RegExp(`(?<![0-9A-Za-z])${FEED_TOKEN_PREFIX.slice(0, -1)}(?:_|%5F)[0-9A-Za-z]+`, 'gi');

/** Days before today a feed still shows, and days after it: the window keeps every feed bounded. */
export const CALENDAR_DAYS_BEFORE = 30;
export const CALENDAR_DAYS_AFTER = 365;

export function generateFeedToken(): string {
  return `${FEED_TOKEN_PREFIX}${randomBase62(SECRET_LENGTH)}`;
}

export function isWellFormedFeedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** What is stored instead of the token: like an API key, 256 random bits need no slow hash. */
export function hashFeedToken(token: string): string {
  return sha256Hex(token);
}

/** The text with every feed token in it replaced: the token is in the URL calendar apps fetch. */
export function redactFeedTokens(text: string): string {
  return text.replace(TOKEN_LIKE, `${FEED_TOKEN_PREFIX}[redacted]`);
}

/** Every secret a URL or echoed input may carry (API keys, feed and draft tokens), replaced: for logs and error bodies. */
export function redactSecrets(text: string): string {
  return redactDraftTokens(redactFeedTokens(redactApiKeys(text)));
}

/** The Europe/Berlin calendar dates a feed covers, both inclusive. */
export function calendarWindow(today: string): { from: string; to: string } {
  return { from: addDays(today, -CALENDAR_DAYS_BEFORE), to: addDays(today, CALENDAR_DAYS_AFTER) };
}

/**
 * An event's UID: stable across fetches, so calendar apps update rather than duplicate, but a hash,
 * so the feed does not reveal the booking's or job's id.
 */
export function calendarUid(kind: string, id: string): string {
  return `${createHash('sha256').update(`${kind}\n${id}`).digest('hex').slice(0, 32)}@karlsruhe-marketplace`;
}

/** One event of a feed: whole days (dates, both inclusive) or a span of time (instants). */
export type CalendarEntry = {
  uid: string;
  summary: string;
  description?: string;
  tentative: boolean;
} & ({ allDay: true; startDate: string; endDate: string } | { allDay: false; start: string; end: string });
