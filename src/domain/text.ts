/** Edit distance (insertions, deletions, substitutions) between two short strings. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidates closest to `input` (case-insensitive), nearest first: those within a third of the
 * longer word's length, or the ones that start with it. Empty when nothing is close.
 */
export function closestMatches(input: string, candidates: readonly string[], max = 3): string[] {
  const needle = input.toLowerCase().slice(0, 64);
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const distance = levenshtein(needle, lower);
      const close = distance <= Math.max(1, Math.floor(Math.max(needle.length, lower.length) / 3));
      const prefix = needle.length >= 3 && (lower.startsWith(needle) || needle.startsWith(lower));
      return { candidate, distance, close: close || prefix };
    })
    .filter((m) => m.close)
    .sort((a, b) => a.distance - b.distance)
    .slice(0, max)
    .map((m) => m.candidate);
}

/*
 * What a text field may hold. Names and titles are shown to other people, so they must show
 * something (not only spaces, zero-width or other invisible characters), and no text field may
 * carry characters that reorder how the text around them is displayed (bidi embeddings, overrides
 * and isolates: "\u202Egnp.exe" displays as "exe.png"). Such characters are refused, not stripped:
 * a silent edit would store something other than what the client sent, and a 400 naming the field
 * tells it why. Right-to-left scripts need none of them (the Unicode algorithm orders them itself).
 *
 * The rules are JSON Schema patterns (ECMA-262 with the u flag, as ajv and TypeBox read them), so the
 * schema is the one contract: the API, the /developers form, the admin CLI and the OpenAPI document
 * all take them from there. Both run in linear time on any input.
 */

/** Bidi embeddings and overrides (U+202A..U+202E) and isolates (U+2066..U+2069). */
const DIRECTION_CONTROLS = '\\u202A-\\u202E\\u2066-\\u2069';
/**
 * What shows nothing by itself: separators and spaces, control and format characters (zero-width
 * space and joiners, soft hyphen), default-ignorables (Hangul fillers, variation selectors),
 * combining marks without a base, and the blank Braille pattern.
 */
const INVISIBLE = '\\p{Z}\\p{Cc}\\p{Cf}\\p{M}\\p{Default_Ignorable_Code_Point}\\u2800';

/** Any text without direction controls. */
export const PLAIN_TEXT_PATTERN = `^[^${DIRECTION_CONTROLS}]*$`;
/** Text without direction controls that shows at least one character (a name, a title). */
export const VISIBLE_TEXT_PATTERN = `^(?=[^${DIRECTION_CONTROLS}]*$)[${INVISIBLE}]*[^${INVISIBLE}]`;

const DIRECTION_CONTROL = new RegExp(`[${DIRECTION_CONTROLS}]`, 'u');
const VISIBLE = new RegExp(`[^${INVISIBLE}]`, 'u');

/** The first direction control in a text, as "U+202E", or null. */
export function directionControlIn(text: string): string | null {
  const found = DIRECTION_CONTROL.exec(text)?.[0];
  return found === undefined ? null : `U+${found.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether a text shows at least one character. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/*
 * Enum values (categories, sort orders, conditions, event types ...) and true/false are taken in
 * any letter case: "cleaning" is CLEANING. sameIgnoringCase is that rule, for the query guard and
 * the write bodies alike; anyCasePattern writes it as a JSON Schema pattern, so that the OpenAPI
 * document accepts exactly what the server does ("cleaning", "Cleaning", also the Kelvin sign U+212A,
 * whose lower case is k).
 */

/** Whether `given` is `value` in another letter case (compared in lower case, as the server does). */
export const sameIgnoringCase = (value: string, given: string) => value.toLowerCase() === given.toLowerCase();

/** For each lower-case character, the characters of the Basic Multilingual Plane that lower-case to it. */
let variantsByLower: Map<string, string[]> | undefined;

function caseVariants(character: string): string[] {
  if (!variantsByLower) {
    variantsByLower = new Map();
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue; // lone surrogates
      const c = String.fromCharCode(code);
      const lower = c.toLowerCase();
      if (lower.length === 1) variantsByLower.set(lower, [...(variantsByLower.get(lower) ?? []), c]);
    }
  }
  return variantsByLower.get(character.toLowerCase()) ?? [character];
}

const escapeInPattern = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** One character of a value, in any case: a class of its variants, or itself. */
function anyCaseCharacter(c: string): string {
  const variants = caseVariants(c);
  return variants.length > 1 ? `[${variants.map(escapeInPattern).join('')}]` : escapeInPattern(c);
}

interface Trie {
  end: boolean;
  next: Map<string, Trie>;
}

/** The alternatives below a trie node, with their common beginnings written once: job.(?:created|updated). */
function trieSource(node: Trie): string {
  const branches = [...node.next].map(([c, child]) => anyCaseCharacter(c) + trieSource(child));
  if (branches.length === 0) return '';
  const group = branches.length === 1 ? (branches[0] ?? '') : `(?:${branches.join('|')})`;
  if (!node.end) return group;
  return branches.length === 1 && branches[0]?.length === anyCaseCharacter([...node.next.keys()][0] ?? '').length
    ? `${group}?`
    : `(?:${branches.join('|')})?`;
}

/**
 * A JSON Schema pattern matching each of `values` in any letter case and nothing else: what
 * sameIgnoringCase accepts ("de" -> ^(?:[Dd][Ee])$), common beginnings written once. The values are
 * ASCII-lower-casing texts such as enum values; a character whose lower case is longer than one
 * character ("İ") cannot match them.
 */
export function anyCasePattern(values: readonly string[]): string {
  const root: Trie = { end: false, next: new Map() };
  for (const value of values) {
    let node = root;
    for (const c of value.toLowerCase()) {
      let child = node.next.get(c);
      if (!child) {
        child = { end: false, next: new Map() };
        node.next.set(c, child);
      }
      node = child;
    }
    node.end = true;
  }
  return `^${trieSource(root)}$`;
}

/** A JSON Schema of the texts sameIgnoringCase accepts for one of `values`: anyCasePattern, with its length bound. */
export function anyCaseSchema(values: readonly string[]) {
  return {
    type: 'string',
    pattern: anyCasePattern(values),
    maxLength: Math.max(...values.map((value) => [...value].length)),
  } as const;
}

/**
 * How a person is shown to other people: the first name and the initial of the last word ("Anna M."),
 * never the whole name. One rule for a conversation's other party, a review's author and a listing's
 * owner.
 */
export function firstNameAndInitial(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  if (words.length < 2) return first || 'Anonym';
  const last = words[words.length - 1] ?? '';
  const initial = [...last][0] ?? '';
  return /^\p{L}$/u.test(initial) ? `${first} ${initial.toUpperCase()}.` : first;
}
