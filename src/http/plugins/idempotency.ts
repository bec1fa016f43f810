import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_RETENTION_HOURS,
  releaseIdempotencyKey,
} from '../../repositories/idempotency.js';
import { ApiError } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { accountId: string; key: string } | null;
  }
}

const HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function badKey(): ApiError {
  return new ApiError(
    400,
    'invalid_parameter',
    'The Idempotency-Key header must be 1 to 255 visible ASCII characters.',
    {
      param: 'Idempotency-Key',
      suggestion: 'Send a fresh random value per operation, e.g. a UUID, and the same value when you retry it.',
    },
  );
}

/**
 * Idempotency-Key on every POST of the developer tier, as Stripe does: a retry with the same key
 * and body gets the first response again (with `Idempotent-Replayed: true`) without doing the work
 * twice; the same key with another body is a 422; a retry while the first is still running is a 409.
 * Keys are scoped to the account and kept for IDEMPOTENCY_RETENTION_HOURS. Responses of 5xx are not
 * kept, so a retry after a server failure does the work.
 */
export function registerIdempotency(app: FastifyInstance, db: Kysely<Database>, now: () => Date): void {
  app.decorateRequest('idempotency', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST') return;
    const header = request.headers[HEADER];
    if (header === undefined) return;
    if (Array.isArray(header) || !KEY_PATTERN.test(header)) throw badKey();
    const account = request.access?.tier === 'developer' ? request.access.key?.account : undefined;
    if (!account) return; // anonymous posts (key requests) have their own duplicate rule
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const claim = await claimIdempotencyKey(db, { accountId: account.id, key: header, requestHash }, now());
    if (claim.claimed) {
      request.idempotency = { accountId: account.id, key: header };
      return;
    }
    const { existing } = claim;
    if (existing.request_hash !== requestHash) {
      throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for a different request.', {
        param: 'Idempotency-Key',
        suggestion: `Use a new key for a new operation; a key stays bound to its first request for ${IDEMPOTENCY_RETENTION_HOURS} hours.`,
      });
    }
    if (existing.state === 'running') {
      throw new ApiError(
        409,
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed.',
        {
          param: 'Idempotency-Key',
          suggestion: 'Retry in a moment with the same key and body to receive its response.',
          headers: { 'retry-after': '1' },
        },
      );
    }
    return reply
      .code(existing.response_status ?? 200)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(existing.response_body ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = null;
    if (reply.statusCode >= 500) await releaseIdempotencyKey(db, claim.accountId, claim.key);
    else
      await completeIdempotencyKey(db, claim.accountId, claim.key, {
        status: reply.statusCode,
        body: String(payload ?? ''),
      });
    return payload;
  });
}
