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
