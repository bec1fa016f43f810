// negotiator (jshttp, the negotiation of Express) ships no types; only what compression.ts and the sign-in pages use.
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';

  export default class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** The best of `available` by the Accept-Encoding q-values; ties go by `preferred`. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
    /** The best of `available` by the Accept-Language q-values. */
    language(available: readonly string[]): string | undefined;
  }
}
