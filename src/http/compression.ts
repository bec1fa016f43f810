import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** The content codings of JSON answers (the documents have their own, plugins/documents.ts). */
export type Coding = 'br' | 'gzip';

/** Equal q-values go to the first: brotli's output is the smallest at the cost below. */
const PREFERENCE = ['br', 'gzip', 'identity'] as const;

/**
 * Answers smaller than this go as they are. Below it compression saves a few hundred bytes at
 * most, less than the headers every answer carries (~600 bytes), and the body already fits in the
 * first TCP segment; a single job (~1.2 KB) is the smallest answer that still halves.
 */
export const MIN_COMPRESSED_BYTES = 1024;

/**
 * Codec settings for answers made per request on 2 cores (measured on a 20-job page, 18.7 KB):
 * brotli quality 5 gives 4.6 KB in ~180 µs; quality 4 (4.8 KB, ~150 µs) is no smaller than gzip
 * and slower; 11 is 43 ms. gzip level 6 (zlib's default) gives 4.7 KB in ~90 µs; lower levels save
 * little time for larger output. Synchronous: an API answer is at most ~50 KB (a page of 50), under
 * half a millisecond, less than a round trip to the thread pool and back for most of them.
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP = { level: 6 };

/** The codings negotiated per Accept-Encoding value (clients send a handful of distinct ones). */
const negotiated = new Map<string, Coding | null>();
const REMEMBERED_VALUES = 256;

/** The coding a request accepts best (q-values honoured, `*` and `identity;q=0` understood), or null: identity. */
export function acceptedCoding(request: FastifyRequest): Coding | null {
  const header = request.headers['accept-encoding'];
  if (typeof header !== 'string' || header === '') return null;
  let coding = negotiated.get(header);
  if (coding === undefined) {
    const best = new Negotiator({ headers: { 'accept-encoding': header } }).encoding(PREFERENCE, {
      preferred: PREFERENCE,
    });
    coding = best === 'br' || best === 'gzip' ? best : null;
    if (negotiated.size >= REMEMBERED_VALUES) negotiated.clear();
    if (header.length <= 256) negotiated.set(header, coding);
  }
  return coding;
}

/**
 * The coding an answer of `bytes` is sent in to this request: none for small answers and for HEAD
 * (which sends no body, so its headers describe the answer as it is).
 */
export function codingFor(request: FastifyRequest, bytes: number): Coding | null {
  return bytes >= MIN_COMPRESSED_BYTES && request.method !== 'HEAD' ? acceptedCoding(request) : null;
}

/**
 * The entity tag of an answer in a coding: the tag of its bytes as they are, with the coding
 * appended (W/"tag" -> W/"tag-br"). Each coding is a representation of its own (RFC 9110 8.8.3),
 * so a client, or a cache between, revalidates exactly the bytes it holds.
 */
export function codedTag(etag: string, coding: Coding | null): string {
  return coding === null ? etag : `${etag.slice(0, -1)}-${coding}"`;
}

/** Adds Accept-Encoding to the answer's Vary, keeping what is there (Origin, with a list of CORS origins). */
export function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) {
    reply.header('vary', 'Accept-Encoding');
  } else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?=,|$)/i.test(String(vary))) {
    reply.header('vary', `${vary}, Accept-Encoding`);
  }
}

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** Whether an answer is JSON (application/json, or a +json type such as application/problem+json). */
export function isJsonAnswer(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && JSON_TYPE.test(type);
}

/** Compresses bytes in a coding; each call is CPU spent, which the caller counts. */
export type Encode = (body: Buffer | string, coding: Coding) => Buffer;

export function encoder(onCompressed: (coding: Coding) => void = () => {}): Encode {
  return (body, coding) => {
    onCompressed(coding);
    return coding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
  };
}
