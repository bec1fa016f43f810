import type { FastifyInstance } from 'fastify';
import { codingFor, type Encode, isJsonAnswer, varyOnEncoding } from '../compression.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `own`: the route's answers are compressed in the scope it is registered in (the documents,
     * plugins/documents.ts), not by the API's compression.
     */
    compression?: 'own';
  }
}

/**
 * JSON answers (errors too) of MIN_COMPRESSED_BYTES and more go in brotli or gzip, as the
 * request's Accept-Encoding prefers, or as they are when it accepts neither; every JSON answer
 * carries Vary: Accept-Encoding. The reused answers of the response cache arrive here compressed
 * already (it keeps their compressed bytes). Streams (the SSE stream), 204, 304 and HEAD are left
 * as they are; /mcp's JSON answers are compressed like the others.
 *
 * Registered after every hook that reads an answer's bytes (idempotency keeps them as they are).
 * An answer with a tag from elsewhere keeps it, made weak if it was strong (as nginx does): the
 * bytes differ per coding, what they decode to does not.
 */
export function registerCompression(app: FastifyInstance, encode: Encode): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.compression === 'own' || reply.hasHeader('content-encoding')) return payload;
    if (reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (!(typeof payload === 'string' || Buffer.isBuffer(payload)) || !isJsonAnswer(reply)) return payload;
    varyOnEncoding(reply);
    const coding = codingFor(request, Buffer.byteLength(payload));
    if (coding === null) return payload;
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
    reply.header('content-encoding', coding);
    return encode(payload, coding);
  });
}
