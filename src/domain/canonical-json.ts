/**
 * JSON text of a parsed JSON value with every object's keys sorted: two bodies that parse to the
 * same value get the same text, whatever order or spacing their sender used. Only for values
 * that came out of JSON.parse (no cycles, no functions); undefined becomes null.
 * Not the `canonicalize` package (RFC 8785): it throws on lone surrogates and on numbers beyond
 * the double range (1e400 parses to Infinity), both of which JSON.parse accepts from a client, and
 * a fingerprint must never turn a client's body into a 500.
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
