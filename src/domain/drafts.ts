import { randomBase62, sha256Hex } from './secrets.js';

/** The writes an agent may prepare for a person to confirm (POST /v1/drafts), by operationId. */
export const DRAFT_OPERATIONS = ['createJob', 'applyToJob', 'createBooking', 'createListing'] as const;
export type DraftOperation = (typeof DRAFT_OPERATIONS)[number];

/** The operations whose path names what they act on: the job applied to, the listing booked. */
export const DRAFT_PATH_OPERATIONS: readonly DraftOperation[] = ['applyToJob', 'createBooking'];

export const DRAFT_STATUSES = ['pending', 'confirmed', 'declined', 'expired'] as const;
export type DraftStatus = (typeof DRAFT_STATUSES)[number];

/** Prefix of the page token: a secret like an API key (256 bits), kept only as its SHA-256. */
const TOKEN_PREFIX = 'dft_';
const TOKEN_PATTERN = /^dft_[0-9A-Za-z]{43}$/;

export function newDraftToken(): string {
  return `${TOKEN_PREFIX}${randomBase62(43)}`;
}

/** The text with every draft token in it replaced: the token is in the URL of the page (logs). */
export function redactDraftTokens(text: string): string {
  return text.replace(/dft_[0-9A-Za-z]{8,}/g, `${TOKEN_PREFIX}[redacted]`);
}

/** The stored form of a token; undefined for anything that cannot be one (no lookup needed). */
export function draftTokenHash(token: string): string | undefined {
  return TOKEN_PATTERN.test(token) ? sha256Hex(token) : undefined;
}

/**
 * What the person is asked to confirm, as the page and GET /v1/drafts/{id} show it: the subject's
 * title and place name (district and postal code, never a point or an address), money and dates.
 */
export interface DraftDetails {
  title: string;
  place: string;
  /** The job's price, the booking's rent, or the listing's price per day, in EUR. */
  price_eur: number;
  deposit_eur: number | null;
  /** Job: when it is wanted (date-time); booking: its first day (date). */
  starts: string | null;
  /** Job: its deadline (date-time); booking: its last day (date). */
  ends: string | null;
}

export interface DraftSummary {
  de: string;
  en: string;
}

const money = {
  de: new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }),
  en: new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }),
};

const dateTime = {
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }),
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }),
};
const dateOnly = {
  de: new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'UTC' }),
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }),
};

/** A date-time in Karlsruhe's time, or a calendar date as it is; "–" for none. */
export function shownWhen(value: string | null, language: 'de' | 'en'): string {
  if (value === null) return '–';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dateOnly[language].format(new Date(`${value}T00:00:00Z`));
  return dateTime[language].format(new Date(value));
}

export function shownMoney(eur: number, language: 'de' | 'en'): string {
  return money[language].format(eur);
}

/** ", gewünscht am …" and the like: a date clause, or nothing when there is no date. */
function when(label: string, value: string | null, language: 'de' | 'en'): string {
  return value === null ? '' : `, ${label} ${shownWhen(value, language)}`;
}

/** One sentence per language saying what confirming does. */
export function draftSummary(operation: DraftOperation, d: DraftDetails): DraftSummary {
  const de = (eur: number) => shownMoney(eur, 'de');
  const en = (eur: number) => shownMoney(eur, 'en');
  const deposit = d.deposit_eur ?? 0;
  switch (operation) {
    case 'createJob':
      return {
        de: `Auftrag veröffentlichen: „${d.title}“ in ${d.place} für ${de(d.price_eur)}${when('gewünscht am', d.starts, 'de')}${when('Frist', d.ends, 'de')}.`,
        en: `Post a job: "${d.title}" in ${d.place} for ${en(d.price_eur)}${when('wanted on', d.starts, 'en')}${when('deadline', d.ends, 'en')}.`,
      };
    case 'applyToJob':
      return {
        de: `Auf den Auftrag „${d.title}“ in ${d.place} bewerben (${de(d.price_eur)}${when('gewünscht am', d.starts, 'de')}).`,
        en: `Apply to the job "${d.title}" in ${d.place} (${en(d.price_eur)}${when('wanted on', d.starts, 'en')}).`,
      };
    case 'createBooking':
      return {
        de: `„${d.title}“ in ${d.place} ausleihen vom ${shownWhen(d.starts, 'de')} bis ${shownWhen(d.ends, 'de')}: ${de(d.price_eur)} Miete und ${de(deposit)} Kaution.`,
        en: `Borrow "${d.title}" in ${d.place} from ${shownWhen(d.starts, 'en')} to ${shownWhen(d.ends, 'en')}: ${en(d.price_eur)} rent and a ${en(deposit)} deposit.`,
      };
    case 'createListing':
      return {
        de: `Zum Verleihen anbieten: „${d.title}“ in ${d.place} für ${de(d.price_eur)} pro Tag und ${de(deposit)} Kaution.`,
        en: `Offer to lend: "${d.title}" in ${d.place} for ${en(d.price_eur)} a day and a ${en(deposit)} deposit.`,
      };
  }
}

/** A place as the API names it publicly: district (in Karlsruhe) or town, with the postal code. */
export function placeName(location: { city: string; plz: string; district: string | null }): string {
  return location.district
    ? `${location.district} (${location.plz} ${location.city})`
    : `${location.plz} ${location.city}`;
}

/** What a draft reads as now: a pending one past its time has expired. */
export function draftStatusAt(
  row: { status: 'pending' | 'confirmed' | 'declined'; expires_at: string },
  now: Date,
): DraftStatus {
  return row.status === 'pending' && Date.parse(row.expires_at) <= now.getTime() ? 'expired' : row.status;
}
