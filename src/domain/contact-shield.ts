import { findPhoneNumbersInText } from 'libphonenumber-js';

/**
 * The contact-data shield of messages (issue 17). Until the application is accepted or the booking
 * confirmed, the other party reads a message with e-mail addresses, phone numbers and messenger
 * links replaced by MASK; the sender always reads what they wrote, and once the deal is made the
 * stored text is shown to both as written. Platforms do this so that both sides stay inside the
 * platform's protection (reviews, cancellation rules, dispute help) until they have agreed.
 *
 * What is masked (docs/api.md#the-contact-data-shield lists it with examples):
 * - e-mail addresses, also written around filters: `name@web.de`, `name at web dot de`,
 *   `name (at) web (punkt) de`, `name [at] gmx [dot] net`, `name @ web . de`;
 * - phone numbers in German and international formats, found by libphonenumber-js (Google's
 *   libphonenumber metadata, `0721 123456`, `(0721) 12 34 56`, `+49 171 2345678`, `0049 ...`,
 *   `+44 20 7946 0958`), and what it does not take for a number: 7 or more digits in a row with
 *   spaces, dots, slashes, dashes or brackets between them (`0 1 7 1 - 2 3 4 5 6 7`), and digits
 *   spelled out as words (six or more in a row, German or English: `null eins sieben eins ...`);
 * - messenger and social links: wa.me, WhatsApp, t.me, Telegram, Signal, Threema, m.me, Skype,
 *   Discord, Instagram, Facebook, Snapchat.
 * Dates (`24.12.2026`), times, prices and postal codes (five digits) stay readable.
 */
export const MASK = '[contact data hidden]';

const LOCAL = '[A-Za-z0-9][A-Za-z0-9._%+-]*';
const BRACKETED = (words: string) => String.raw`\s*[([{<]\s*(?:${words})\s*[)\]}>]\s*`;
const AT = String.raw`(?:\s*@\s*|${BRACKETED('at|ät|@')}|\s+(?:at|ät)\s+)`;
const DOT = String.raw`(?:\.|\s+\.\s+|${BRACKETED('dot|punkt|\\.')}|\s+(?:dot|punkt)\s+)`;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TLD = '[A-Za-z]{2,24}';
const EMAIL = new RegExp(String.raw`${LOCAL}${AT}${LABEL}(?:${DOT}${LABEL})*${DOT}${TLD}\b`, 'giu');

/**
 * Top-level domains an address written around the filter ("name at web dot de") must end in: without
 * an @, "bin at work. Dann" would read as one. The common ones here and in Germany's neighbours.
 */
const SPELLED_TLDS = new Set(
  'de com net org eu info biz io me at ch nl fr it es pl cz uk co email online mail app dev xyz'.split(' '),
);

function isAddress(found: string): boolean {
  if (found.includes('@')) return true;
  const tld = /([A-Za-z]{2,24})$/u.exec(found)?.[1]?.toLowerCase();
  return tld !== undefined && SPELLED_TLDS.has(tld);
}

const MESSENGER =
  /(?:https?:\/\/)?(?:www\.)?(?:wa\.me|(?:api|chat|web)\.whatsapp\.com|whatsapp\.com|t\.me|telegram\.(?:me|dog)|signal\.(?:me|group)|threema\.id|m\.me|discord\.(?:gg|com\/invite)|instagram\.com|facebook\.com|fb\.me|snapchat\.com\/add)\/?[^\s]*|skype:[^\s]+/giu;

const DIGIT_RUN = /(?:\+|\b)\d(?:[\s./()\u2013-]{0,3}\d){6,}/gu;
const DIGIT_WORDS =
  'null|eins|ein|zwo|zwei|drei|vier|fünf|fuenf|sechs|sieben|acht|neun|zero|oh|one|two|three|four|five|six|seven|eight|nine';
const SPELLED = new RegExp(String.raw`\b(?:(?:${DIGIT_WORDS}|\d)[\s,.-]+){5,}(?:${DIGIT_WORDS}|\d)\b`, 'giu');

/** What reads as a date or a time, not a phone number. */
const DATE_OR_TIME = /^(?:\d{1,2}\.\d{1,2}\.(?:\d{2}|\d{4})|\d{4}-\d{2}-\d{2}|\d{1,2}[:.]\d{2})$/u;

interface Span {
  start: number;
  end: number;
}

function spansOf(pattern: RegExp, text: string, keep: (found: string) => boolean = () => true): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(pattern)) {
    if (match.index === undefined || !keep(match[0])) continue;
    spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return spans;
}

function phoneSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const found of findPhoneNumbersInText(text, { defaultCountry: 'DE' })) {
    if (DATE_OR_TIME.test(text.slice(found.startsAt, found.endsAt).trim())) continue;
    spans.push({ start: found.startsAt, end: found.endsAt });
  }
  for (const span of spansOf(DIGIT_RUN, text)) {
    const found = text.slice(span.start, span.end).trim();
    if (DATE_OR_TIME.test(found) || /^\d{4}-\d{2}-\d{2}(?:[ T]\d)/u.test(found)) continue;
    spans.push(span);
  }
  return spans;
}

/** The contact data in a text, as sorted, merged spans. */
export function contactSpans(text: string): Span[] {
  const all = [
    ...spansOf(EMAIL, text, isAddress),
    ...spansOf(MESSENGER, text),
    ...phoneSpans(text),
    ...spansOf(SPELLED, text),
  ].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  for (const span of all) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** The text with every piece of contact data replaced by MASK, and whether anything was. */
export function maskContactData(text: string): { text: string; masked: boolean } {
  const spans = contactSpans(text);
  if (spans.length === 0) return { text, masked: false };
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + MASK;
    at = span.end;
  }
  return { text: out + text.slice(at), masked: true };
}
