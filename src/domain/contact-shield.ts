import { electronicFormatIBAN, getCountrySpecifications, isValidIBAN } from 'ibantools';
import { findNumbers } from 'libphonenumber-js';
import { LinkifyIt } from 'linkify-it';
import { AT_WORD, DOT_WORD, normalizeContactText, type Span, type Traced } from './contact-text.js';

/**
 * The contact-data shield (issues 17 and 30). Until the application is accepted or the booking
 * confirmed, the other party reads a message or an application's note with e-mail addresses, phone
 * numbers, IBANs, messenger, social and payment links and handles replaced by MASK; the sender
 * always reads what they wrote, and once the deal is made the stored text is shown to both as
 * written. Public text (titles, descriptions, names, bios) refuses contact data. Platforms do this so
 * that both sides stay inside the platform's protection (reviews, cancellation rules, dispute help)
 * until they have agreed.
 *
 * The text is read as domain/contact-text.ts normalises it (NFKC, UTS #39 confusables, invisible
 * characters, digits of every form, number words, "at"/"dot" written out); then:
 * - e-mail addresses: `name@domain.tld`, `name@gmx` (a mail provider without its ending), and with
 *   "at" written out when they end in a common top-level domain (SPELLED_TLDS);
 * - phone numbers and account numbers: digits in a chain (spaces, dots, slashes, dashes, brackets,
 *   `x` between them), found by the chain and by libphonenumber-js's findNumbers, that start with
 *   `+`, `00` or `0` and have 7 to 34 digits, or have 10 or more; 6 or more after a phone word
 *   (`Tel.`, `Handy`, `ruf`, `call`). Dates and times are no chains (`24.12.2026`, `14:30`);
 * - IBANs with a valid checksum (ibantools), spaced or not;
 * - links to messengers, social networks and payment pages (CONTACT_HOSTS: wa.me, t.me,
 *   paypal.me, linkedin.com/in, instagram.com ...) and contact URI schemes (tel:, skype:, ...),
 *   found by linkify-it, to the end of the word;
 * - handles: `@name`, and a name with a digit, `_`, `.` or `#` after a messenger's name
 *   (`Telegram: anna_schmidt`, `Insta: anna.ka92`).
 * A conversation is read across messages too (maskConversation): a message with the same sender's
 * two messages before it, so that a number split over three messages is masked.
 */
export const MASK = '[contact data hidden]';

export type ContactKind = 'email' | 'phone' | 'iban' | 'link' | 'handle';

export interface ContactSpan extends Span {
  kind: ContactKind;
}

/** Top-level domains an address with "at" written out must end in ("bin at work. Dann" is no address). */
const SPELLED_TLDS = new Set(
  'de com net org eu info biz io me at ch nl fr pl cz uk co email online mail app dev xyz tv'.split(' '),
);

/** Mail providers common in Germany: `name@gmx`, `name at gmail` is an address without its ending. */
const MAIL_PROVIDERS =
  'gmx|web|gmail|googlemail|yahoo|outlook|hotmail|icloud|posteo|t-online|freenet|aol|protonmail|proton|mailbox|arcor|online|live|mail';
/** ...of which these, with "at" written out (no "at work", "at home", "at mail"). */
const SPELLED_PROVIDERS =
  'gmx|gmail|googlemail|yahoo|outlook|hotmail|icloud|posteo|t-online|freenet|protonmail|proton|web';

/** Hosts (and host plus path) whose links reach a person: messengers, social networks, payment pages. */
const CONTACT_HOSTS = [
  'wa.me',
  'whatsapp.com',
  't.me',
  'telegram.me',
  'telegram.dog',
  'signal.me',
  'signal.group',
  'threema.id',
  'm.me',
  'messenger.com',
  'discord.gg',
  'discord.com',
  'discordapp.com',
  'instagram.com',
  'instagr.am',
  'facebook.com',
  'fb.com',
  'fb.me',
  'snapchat.com',
  'tiktok.com',
  'twitter.com',
  'x.com',
  'linkedin.com',
  'xing.com',
  'paypal.me',
  'paypal.com',
  'linktr.ee',
  'kik.me',
  'line.me',
  'viber.com',
  'skype.com',
  'wire.com',
  'bsky.app',
];
const CONTACT_SCHEMES = ['tel:', 'sms:', 'skype:', 'whatsapp:', 'tg:', 'signal:', 'viber:', 'callto:', 'facetime:'];

const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true });
for (const scheme of CONTACT_SCHEMES) {
  linkify.add(scheme, {
    validate: (text: string, pos: number) => /^[^\s<>"']+/u.exec(text.slice(pos, pos + 200))?.[0].length ?? 0,
  });
}

function isContactHost(url: string): boolean {
  const host = /^(?:[a-z][a-z0-9+.-]*:)?(?:\/\/)?([^/?#:]+)/iu.exec(url)?.[1]?.toLowerCase() ?? '';
  return CONTACT_HOSTS.some((known) => host === known || host.endsWith(`.${known}`));
}

// ---------------------------------------------------------------------------------------------
// E-mail addresses and handles

const LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;
const DOT = `(?:\\s*${DOT_WORD}\\s*|\\s+\\.\\s*|\\.(?!\\s))`;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = new RegExp(`\\s*(${LABEL}(?:${DOT}${LABEL})*)${DOT}([a-z]{2,24})(?![\\p{L}\\p{N}])`, 'uy');
const PROVIDER = new RegExp(`\\s*(?:${MAIL_PROVIDERS})(?![\\p{L}\\p{N}.-])`, 'uy');
const SPELLED_PROVIDER = new RegExp(`\\s*(?:${SPELLED_PROVIDERS})(?![\\p{L}\\p{N}.-])`, 'uy');

function emailSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char !== '@' && char !== AT_WORD) continue;
    let start = at;
    while (start > 0 && text[start - 1] === ' ' && char === '@') start--;
    let local = start;
    while (local > 0 && LOCAL_CHAR.test(text[local - 1] ?? '')) local--;
    while (local < start && /[._%+-]/u.test(text[local] ?? '')) local++;
    if (local === start) continue;
    DOMAIN.lastIndex = at + 1;
    const domain = DOMAIN.exec(text);
    const spelled = char === AT_WORD || (domain?.[0].includes(DOT_WORD) ?? false);
    if (domain && (!spelled || SPELLED_TLDS.has(domain[2] ?? ''))) {
      spans.push({ start: local, end: DOMAIN.lastIndex });
      at = DOMAIN.lastIndex - 1;
      continue;
    }
    const provider = char === '@' ? PROVIDER : SPELLED_PROVIDER;
    provider.lastIndex = at + 1;
    if (provider.exec(text)) {
      spans.push({ start: local, end: provider.lastIndex });
      at = provider.lastIndex - 1;
    }
  }
  return spans;
}

const HANDLE = /(?<![\p{L}\p{N}@._%+-])@[a-z0-9_](?:[a-z0-9_.]{1,30}[a-z0-9_])?(?![\p{L}\p{N}])/gu;
const MESSENGERS =
  'telegram|insta|instagram|snap|snapchat|skype|discord|threema|signal|tiktok|twitter|facebook|fb|kik|wechat|viber|xing|linkedin|paypal|whatsapp|whats app';
const CONNECTORS = 'ist|is|unter|under|name|id|nick|user|username|handle';
const NAMED_HANDLE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${MESSENGERS})\\s*(?:[:=>-]|\\s(?:${CONNECTORS})\\s*:?)?\\s*(?!(?:${CONNECTORS})(?![\\p{L}\\p{N}]))(@?[a-z0-9_.#-]{3,40})`,
  'gu',
);

function handleSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(HANDLE)) {
    if (match[0].length >= 4) spans.push({ start: match.index, end: match.index + match[0].length });
  }
  for (const match of text.matchAll(NAMED_HANDLE)) {
    const handle = match[1] ?? '';
    const bare = handle.replace(/[.#_-]+$/u, '');
    if (!/[0-9_.#@]/u.test(bare) || !/[a-z]/u.test(bare)) continue;
    const end = match.index + match[0].length - (handle.length - bare.length);
    spans.push({ start: end - bare.length, end });
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Links, IBANs

function linkSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of linkify.match(text) ?? []) {
    const contact =
      CONTACT_SCHEMES.includes(match.schema.toLowerCase()) ||
      (match.schema !== 'mailto:' && isContactHost(match.url) && !/^[a-z0-9._%+-]+@/iu.test(match.raw));
    if (!contact) continue;
    // To the end of the word: what follows a link without a space is part of what it says.
    let end = match.lastIndex;
    while (end < text.length && !/\s/u.test(text[end] ?? '')) end++;
    spans.push({ start: match.index, end });
  }
  return spans;
}

const IBAN_LENGTHS = new Map(
  Object.entries(getCountrySpecifications())
    .filter(([, spec]) => typeof spec.chars === 'number' && spec.chars > 0)
    .map(([country, spec]) => [country.toLowerCase(), spec.chars as number]),
);
const IBAN_CANDIDATE = /(?<![\p{L}\p{N}])([a-z]{2})\s?\d{2}(?:[\s./-]?[a-z0-9]){10,32}/gu;

function ibanSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const length = IBAN_LENGTHS.get(match[1] ?? '');
    if (length === undefined) continue;
    // The first `length` letters and digits, wherever the candidate ran on into the next word.
    let end = match.index;
    let taken = 0;
    while (end < match.index + match[0].length && taken < length) {
      if (/[a-z0-9]/u.test(text[end] ?? '')) taken++;
      end++;
    }
    if (taken < length) continue;
    const iban = electronicFormatIBAN(text.slice(match.index, end).toUpperCase()) ?? '';
    if (isValidIBAN(iban)) spans.push({ start: match.index, end });
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Phone and account numbers

/** Dates and times: never part of a chain of digits. */
const DATES_AND_TIMES = [
  /(?<!\d)(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:\d{4}(?!\d)|\d{2}(?!\d)|(?!\d))/gu,
  /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/gu,
  /(?<!\d)(?:0?[1-9]|[12]\d|3[01])\/(?:0?[1-9]|1[0-2])(?:\/(?:\d{4}|\d{2}))?(?![\d/])/gu,
  /(?<!\d)(?:[01]?\d|2[0-3])(?::[0-5]\d|\.[0-5]\d(?=\s*(?:uhr|h)(?![\p{L}])))(?::[0-5]\d)?(?!\d)/gu,
  /(?<!\d)(?:[01]?\d|2[0-3])h[0-5]\d(?!\d)/gu,
];

/** Digits with up to four separators between each group: spaces, dots, slashes, dashes, brackets, commas, `x`. */
const CHAIN = /(?:\+\s*|\(\s*\+?\s*)?\d+(?:(?:[\s.,/\\_*~|()[\]'"+-]|x(?=\s*\d)){1,4}\d+)*/gu;

/** Words that say a phone number follows. */
const PHONE_WORD =
  /(?:tel|telefon\p{L}*|handy\p{L}*|mobil\p{L}*|phone|call|anruf\p{L}*|ruf|rufe|festnetz|fon|whatsapp|sms|nummer ist|nummer:|number)[\s.:]*[^\p{L}\d]{0,12}$/u;

function masksDates(text: string): string {
  let out = text;
  for (const pattern of DATES_AND_TIMES) out = out.replace(pattern, (found) => 'd'.repeat(found.length));
  return out;
}

/** The fewest digits a phone number has here (isPhoneLike's smallest case: six after a phone word). */
const MIN_PHONE_DIGITS = 6;

function isPhoneLike(text: string, start: number, found: string): boolean {
  const digits = found.replace(/\D/g, '');
  if (digits.length > 34) return false;
  const international = /^\(?\s*\+/u.test(found) || digits.startsWith('00');
  if (digits.length >= 7 && (international || digits.startsWith('0'))) return true;
  if (digits.length >= 10 && !found.includes(',')) return true;
  return digits.length >= MIN_PHONE_DIGITS && PHONE_WORD.test(text.slice(Math.max(0, start - 40), start));
}

/**
 * findNumbers with German numbers as the default and at most 50 candidates (`maxTries`, an option of
 * libphonenumber-js its types do not list): a text of nothing but digit groups cost 200 ms without a
 * bound, and the chains find what lies beyond.
 */
const FIND_NUMBERS = { defaultCountry: 'DE' as const, v2: true as const, maxTries: 50 };

/** Fewer ASCII digits than any number isPhoneLike takes: then neither search below can find one. */
function tooFewDigits(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= MIN_PHONE_DIGITS) return false;
  }
  return true;
}

function phoneSpans(text: string): Span[] {
  // Every span below passes isPhoneLike, which counts the ASCII digits of what was found (in the
  // text with its dates masked, which has no more digits than the text): a text with fewer than
  // six holds none, and most texts skip libphonenumber, half the cost of a job's validation.
  if (tooFewDigits(text)) return [];
  const chains = masksDates(text);
  const spans: Span[] = [];
  for (const match of chains.matchAll(CHAIN)) {
    if (isPhoneLike(text, match.index, match[0]))
      spans.push({ start: match.index, end: match.index + match[0].length });
  }
  for (const found of findNumbers(chains, FIND_NUMBERS)) {
    const raw = chains.slice(found.startsAt, found.endsAt);
    if (isPhoneLike(text, found.startsAt, raw)) spans.push({ start: found.startsAt, end: found.endsAt });
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// The shield

function merged(spans: ContactSpan[]): ContactSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: ContactSpan[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/** The contact data in a normalised text, as spans of that text. */
function spansIn(normalised: Traced): ContactSpan[] {
  const text = normalised.text;
  const linkText = text.replaceAll(AT_WORD, '@').replaceAll(DOT_WORD, '.');
  const kinds: [ContactKind, Span[]][] = [
    ['email', emailSpans(text)],
    ['link', linkSpans(linkText)],
    ['iban', ibanSpans(text)],
    ['handle', handleSpans(text)],
    ['phone', phoneSpans(text)],
  ];
  return kinds.flatMap(([kind, spans]) => spans.map((span) => ({ ...span, kind })));
}

const TRAILING_INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]*/uy;

/** The contact data in a text, as sorted, merged spans of the original text (kind: the first kind found there). */
export function findContactData(text: string): ContactSpan[] {
  const normalised = normalizeContactText(text);
  const spans = spansIn(normalised).map((span) => {
    const { start, end } = normalised.origin(span.start, span.end);
    // With what shows nothing after it: the keycap of a last digit, a zero-width space.
    TRAILING_INVISIBLE.lastIndex = end;
    TRAILING_INVISIBLE.exec(text);
    return { ...span, start, end: Math.max(end, TRAILING_INVISIBLE.lastIndex) };
  });
  return merged(spans);
}

/** The kinds of contact data a text holds, in the order found: what a refusal names. */
export function contactKindsIn(text: string): ContactKind[] {
  return [...new Set(findContactData(text).map((span) => span.kind))];
}

function masked(text: string, spans: readonly Span[]): { text: string; masked: boolean } {
  if (spans.length === 0) return { text, masked: false };
  let out = '';
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + MASK;
    at = span.end;
  }
  return { text: out + text.slice(at), masked: true };
}

/** The text with every piece of contact data replaced by MASK, and whether anything was. */
export function maskContactData(text: string): { text: string; masked: boolean } {
  return masked(text, findContactData(text));
}

/**
 * An application's note as its reader sees it (a job's or a job series'): masked when `shielded`
 * (the owner reading one not accepted), else as written; null stays null.
 */
export function applicationNote(message: string | null, shielded: boolean): { text: string | null; masked: boolean } {
  return message !== null && shielded ? maskContactData(message) : { text: message, masked: false };
}

/** A message of a conversation, as the shield reads the conversation. */
export interface SaidMessage {
  sender: string;
  text: string;
}

/** How many of a sender's messages are read together: the message and the two before it. */
export const MESSAGES_READ_TOGETHER = 3;
/** ...among this many messages of the conversation (the other side's in between count). */
export const MESSAGES_LOOKED_BACK = 10;
/** How much of a long message is read across its boundary with the next or the previous one. */
const EDGE = 160;

/**
 * Each message of a stretch of a conversation (oldest first) with its contact data masked: its
 * own, and what it holds of contact data that runs across it and the same sender's messages
 * before or after it (at most MESSAGES_READ_TOGETHER of them, among MESSAGES_LOOKED_BACK messages).
 * A number sent as "0171", "234", "5678" is masked in all three.
 */
export function maskConversation(messages: readonly SaidMessage[]): { text: string; masked: boolean }[] {
  const spans = messages.map((message) => findContactData(message.text) as Span[]);
  for (let last = 0; last < messages.length; last++) {
    const sender = messages[last]?.sender;
    const window = [last];
    for (let i = last - 1; i >= 0 && last - i < MESSAGES_LOOKED_BACK && window.length < MESSAGES_READ_TOGETHER; i--) {
      if (messages[i]?.sender === sender) window.unshift(i);
    }
    if (window.length < 2) continue;
    // A long message in the middle cannot carry one piece across both its ends: read from it on.
    while (window.length > 2 && (messages[window[1] ?? 0]?.text.length ?? 0) > EDGE) window.shift();
    const parts = window.map((index, place) => {
      const text = messages[index]?.text ?? '';
      const from = place === 0 ? Math.max(0, text.length - EDGE) : 0;
      const to = place === window.length - 1 ? Math.min(text.length, EDGE) : text.length;
      return { index, from, text: text.slice(from, to) };
    });
    let joined = '';
    const bounds = parts.map((part) => {
      const start = joined.length;
      joined += `${part.text}\n`;
      return { ...part, start, end: start + part.text.length };
    });
    for (const span of findContactData(joined)) {
      const touched = bounds.filter((bound) => span.start < bound.end && span.end > bound.start);
      if (touched.length < 2) continue;
      for (const bound of touched) {
        const start = Math.max(span.start, bound.start) - bound.start + bound.from;
        const end = Math.min(span.end, bound.end) - bound.start + bound.from;
        spans[bound.index]?.push({ start, end });
      }
    }
  }
  return messages.map((message, i) => masked(message.text, merged((spans[i] ?? []) as ContactSpan[])));
}
