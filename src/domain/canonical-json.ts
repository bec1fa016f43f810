/**
 * JSON text of a parsed JSON value with every object's keys sorted: two bodies that parse to the
 * same value get the same text, whatever order or spacing their sender used. Only for values
 * that came out of JSON.parse (no cycles, no functions); undefined becomes null.
 * (A library such as safe-stable-stringify or canonicalize (RFC 8785) would do the same; this
 * is the whole of what is needed for a fingerprint.)
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
