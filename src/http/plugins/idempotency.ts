import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { canonicalJson } from '../../domain/canonical-json.js';
import { IDEMPOTENCY_KEY_FORMAT, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_RETENTION } from '../../schemas/idempotency.js';
import type { Database } from '../../services/database.js';
import { ApiError } from '../../services/errors.js';
import {
  type Claim,
  claimIdempotencyKey,
  completeIdempotencyKey,
  pastLease,
  releaseIdempotencyKey,
  type StoredResponse,
} from '../../services/idempotency.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: Claim | null;
  }
  interface FastifyContextConfig {
    /**
     * What is kept of a 2xx answer for its replays, where the answer holds a secret shown once
     * (a draft's confirmation_url): the body without it. The replay then says it is gone.
     */
    replayedBody?: (body: string) => string;
  }
}

/** 409 for a key another attempt holds: retry shortly for its answer. */
export function inProgress(message: string): ApiError {
  return new ApiError(409, 'idempotency_in_progress', message, {
    param: 'Idempotency-Key',
    suggestion: 'Retry in a moment with the same key and body to receive its response.',
    headers: { 'retry-after': '1' },
  });
}

const HEADER = 'idempotency-key';
/**
 * The headers that describe an answer itself, stored and replayed with it. Everything else a
 * replay carries is about the replaying request (X-Request-Id, the RateLimit budget, the security
 * headers) and is set afresh. Retry-After is not among them: an answer with it is never stored.
 */
const REPLAYED_HEADERS = ['content-type', 'location'] as const;

/** What a key is bound to: method, URL and the body as parsed, so key order and spacing do not count. */
function fingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

/**
 * Answers that say "try later" (429, any 5xx including 503, anything with Retry-After) are not
 * kept: the retry they ask for must do the work, not get the refusal again.
 */
function saysTryLater(status: number, hasRetryAfter: boolean): boolean {
  return status >= 500 || status === 429 || hasRetryAfter;
}

function replayedHeaders(stored: string | null): Record<string, string> {
  // Keys stored before migration 0011 kept no headers; every answer then was JSON.
  return stored === null ? { 'content-type': 'application/json; charset=utf-8' } : JSON.parse(stored);
}

function badKey(): ApiError {
  return new ApiError(400, 'invalid_parameter', `The Idempotency-Key header must be ${IDEMPOTENCY_KEY_FORMAT}.`, {
    param: 'Idempotency-Key',
    suggestion: 'Send a fresh random value per operation, e.g. a UUID, and the same value when you retry it.',
  });
}

/**
 * Idempotency-Key on every POST of the developer tier, as Stripe does: a retry with the same key
 * and body gets the first response again (with `Idempotent-Replayed: true`) without doing the work
 * twice; the same key with another body is a 422; a retry while the first is still running is a 409.
 * Keys are scoped to the account and kept for IDEMPOTENCY_RETENTION_HOURS (domain/idempotency.ts).
 * Only what a write that ran answered is kept, as Stripe keeps only the results of an endpoint
 * that started executing: a refusal before the write (validation, 401/403/404, a missing
 * precondition such as 409 provider_details_required) or one that rolled the write back frees the
 * key, and so do answers that say "try later" (5xx, 429, Retry-After), unless the write had
 * committed. The services throw every refusal they decide inside a write transaction inside it
 * (a full job, a state a conditional update did not find, days taken, a limit): it rolls back
 * with the claim's mark, so no refusal is kept; none records anything that must outlive it. A replay carries the stored answer's REPLAYED_HEADERS.
 *
 * Crashes: the write transaction marks the key 'committed' (inWriteTransaction, which every write
 * service runs its write in, with the claim this hook puts on the request), so after the
 * process dies a retry finds either a 'running' key whose write never committed (taken over once
 * the lease has passed, and the work done then) or a 'committed' one whose response was lost
 * (409 idempotency_response_lost: look the result up). The work is never done twice.
 */
export function registerIdempotency(app: FastifyInstance, db: Kysely<Database>, now: () => Date): void {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const header = request.headers[HEADER];
    if (header === undefined) return;
    if (Array.isArray(header) || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw badKey();
    const account = request.access?.tier === 'developer' ? request.access.key?.account : undefined;
    if (!account) return; // anonymous posts (key requests) have their own duplicate rule
    const requestHash = fingerprint(request.method, request.url, request.body);
    const at = now();
    const outcome = await claimIdempotencyKey(db, { accountId: account.id, key: header, requestHash }, at);
    if (outcome.claimed) {
      request.idempotency = outcome.claim;
      if (outcome.takeover) request.log.warn('idempotency key taken over after its first attempt stopped');
      return;
    }
    const { existing } = outcome;
    if (existing.request_hash !== requestHash) {
      throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for a different request.', {
        param: 'Idempotency-Key',
        suggestion: `Use a new key for a new operation; a key stays bound to its first request for ${IDEMPOTENCY_RETENTION}.`,
      });
    }
    if (existing.state === 'committed' && pastLease(existing, at)) {
      throw new ApiError(
        409,
        'idempotency_response_lost',
        'The request with this Idempotency-Key took effect, but the server stopped before its response was sent.',
        {
          param: 'Idempotency-Key',
          suggestion:
            'Do not send it again under a new key: look the result up instead (GET the resource, or list yours).',
        },
      );
    }
    if (existing.state !== 'done') throw inProgress('A request with this Idempotency-Key is still being processed.');
    return reply
      .code(existing.response_status ?? 200)
      .headers(replayedHeaders(existing.response_headers))
      .header('idempotent-replayed', 'true')
      .send(existing.response_body ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    if (saysTryLater(reply.statusCode, reply.hasHeader('retry-after'))) {
      await releaseIdempotencyKey(db, claim);
      return payload;
    }
    // A refusal is kept only when a write committed under the claim: one before the write (or
    // thrown inside it, which rolls the claim's mark back with it) frees the key, so the same
    // request once its precondition holds does the work instead of replaying the refusal.
    if (reply.statusCode >= 400 && (await releaseIdempotencyKey(db, claim))) return payload;
    const body = String(payload ?? '');
    const forReplay = request.routeOptions.config.replayedBody;
    const kept = forReplay && reply.statusCode < 300 ? forReplay(body) : body;
    const response: StoredResponse = { status: reply.statusCode, body: kept, headers: {} };
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) response.headers[name] = String(value);
    }
    await completeIdempotencyKey(db, claim, response);
    return payload;
  });
}
