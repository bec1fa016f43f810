import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { API_KEY_PREFIX, hashApiKey, isWellFormedApiKey } from '../../domain/api-keys.js';
import type { Tier, TierLimits } from '../../domain/tiers.js';
import type { RateLimitStore } from '../../rate-limit/store.js';
import { findKeyByHash, type KeyWithAccount, keyState } from '../../repositories/access.js';
import { ApiError } from '../../services/errors.js';
import { clientKey, countRequest, setBudgetHeaders } from '../budget.js';
import { SANDBOX_BASE } from '../routes/route-kit.js';

export interface AccessContext {
  tier: Tier;
  /** The calling key and its account (developer tier only). */
  key: KeyWithAccount | null;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    access: AccessContext;
  }
  interface FastifyInstance {
    /**
     * Lets requests that carry a marker `verify` accepts skip the count (see INNER_CALL_HEADER):
     * called once by whoever makes inner calls (the MCP endpoint, src/mcp/inner-calls.ts).
     */
    acceptInnerCalls(verify: InnerCallVerifier): void;
  }
  interface FastifyContextConfig {
    /**
     * The budget a route's requests count against. Without it: the caller's tier budget (the
     * sandbox's for /v1/demo/*). `exempt`: none (liveness, readiness, the token-protected
     * metrics); `documents`: the documents' own budget (set on every route of the documents'
     * scope, plugins/documents.ts), not the tiers'.
     */
    budget?: 'tier' | 'exempt' | 'documents';
  }
}

/** The budget an outer request counted against, which its inner calls report again. */
export type CountedBudget = Pick<AccessContext, 'tier' | 'limit' | 'remaining' | 'resetSeconds'>;

/**
 * The header of an inner call: a request this app makes to itself on behalf of a caller whose own
 * request was counted already (the MCP endpoint's tool calls, through app.inject). Such a request
 * is authenticated like any other but not counted a second time: it answers with the budget of the
 * request that made it. The access plugin only keeps the slot: it removes the header from every
 * request before anything else sees it, and hands its value to the verifiers registered with
 * app.acceptInnerCalls; the marker's form, its secret and its validity belong to whoever makes
 * the calls. A marker no verifier accepts is ignored, and the request is counted as usual.
 * Never sent to a client.
 */
export const INNER_CALL_HEADER = 'x-kmp-inner-call';

/**
 * The outer budget when `marker` is genuine, else undefined. A verifier must not be fooled by a
 * marker a client could make (a secret that never leaves the process, compared in constant time)
 * and should accept each marker once, only while its outer request waits for it.
 */
export type InnerCallVerifier = (marker: string) => CountedBudget | undefined;

/** The outer budget when `request` is a genuine inner call, else undefined; the marker is removed either way. */
function innerCallOf(request: FastifyRequest, verifiers: readonly InnerCallVerifier[]): CountedBudget | undefined {
  const marker = request.headers[INNER_CALL_HEADER];
  if (marker === undefined) return undefined;
  delete request.headers[INNER_CALL_HEADER];
  if (typeof marker !== 'string') return undefined;
  for (const verify of verifiers) {
    const budget = verify(marker);
    if (budget) return budget;
  }
  return undefined;
}

export interface AccessOptions {
  db: Kysely<Database>;
  /** The database's data version as of the request (Db.version): key lookups are reused while it stays the same. */
  version: (request: FastifyRequest) => Promise<string>;
  store: RateLimitStore;
  limits: TierLimits;
  now: () => Date;
  /** Told about each request refused with 429 (metrics). */
  onRefused?: (tier: Tier) => void;
}

/** Whether the route counts against no tier budget (its `budget` option). */
function isExempt(request: FastifyRequest): boolean {
  const budget = request.routeOptions.config?.budget;
  return budget !== undefined && budget !== 'tier';
}

function invalidKey(message: string, param: KeyHeader = 'X-API-Key'): ApiError {
  return new ApiError(401, 'invalid_api_key', message, {
    param,
    suggestion:
      'Check the key (it starts with kmp_ and has 53 characters), use its successor if it was rotated, or send no key to be served as anonymous. Request a developer key at /developers.',
  });
}

/**
 * Key lookups by hash, reused while the data version stays the same: issuing, rotating or revoking
 * a key is a write, which moves the version, so a revoked key is refused on its next request.
 * Bounded: the oldest lookups go first.
 */
class KeyLookups {
  private readonly rows = new Map<string, { version: string; row: KeyWithAccount | undefined }>();

  constructor(private readonly max = 10_000) {}

  async find(db: Kysely<Database>, hash: string, version: string): Promise<KeyWithAccount | undefined> {
    const known = this.rows.get(hash);
    if (known?.version === version) return known.row;
    const row = await findKeyByHash(db, hash);
    this.rows.delete(hash);
    if (this.rows.size >= this.max) this.rows.delete(this.rows.keys().next().value as string);
    this.rows.set(hash, { version, row });
    return row;
  }
}

/** The headers a key may come in. */
type KeyHeader = 'X-API-Key' | 'Authorization';

/**
 * `Authorization: Bearer kmp_...` is taken as the key too (a common client habit), rather than
 * quietly served as anonymous. Other Authorization values are not this API's (a proxy's Basic
 * credentials, another service's token) and are left alone; /metrics reads its own token and is
 * never authenticated here.
 */
const BEARER_KEY = new RegExp(`^Bearer\\s+(${API_KEY_PREFIX}\\S*)\\s*$`, 'i');

/** The key a request sent and the header it came in, or null for none. */
function sentKey(request: FastifyRequest): { key: string; header: KeyHeader } | null {
  const header = request.headers['x-api-key'];
  if (Array.isArray(header)) throw invalidKey('Send exactly one X-API-Key header.');
  const bearer = BEARER_KEY.exec(request.headers.authorization ?? '')?.[1];
  if (header === undefined) return bearer === undefined ? null : { key: bearer, header: 'Authorization' };
  if (bearer !== undefined && bearer !== header.trim()) {
    throw invalidKey('X-API-Key and Authorization: Bearer hold two different keys.', 'Authorization');
  }
  return { key: header.trim(), header: 'X-API-Key' };
}

/** The key of the request, or null without one; anything wrong with a key that was sent is a 401. */
async function authenticate(
  options: AccessOptions,
  lookups: KeyLookups,
  request: FastifyRequest,
  now: Date,
): Promise<KeyWithAccount | null> {
  const sent = sentKey(request);
  if (sent === null) return null;
  const { key, header } = sent;
  const named = header === 'X-API-Key' ? 'The X-API-Key' : 'The key in Authorization: Bearer';
  if (!isWellFormedApiKey(key)) throw invalidKey(`${named} is malformed.`, header);
  // Looked up by its SHA-256: what the database compares is a hash of 256 random bits, so the
  // comparison's timing tells an attacker nothing about the key. The version is taken first, so a
  // lookup racing a revocation is stored under the older version and not reused.
  const version = await options.version(request);
  const row = await lookups.find(options.db, hashApiKey(key), version);
  if (!row) throw invalidKey(`${named} is not known.`, header);
  const state = keyState(row, now);
  if (state === 'revoked') throw invalidKey(`${named} was revoked.`, header);
  if (state === 'expired') throw invalidKey(`${named} expired after it was rotated; use its successor.`, header);
  return row;
}

/**
 * The budget a request counts against: per key for developers (a rotated key and its successor
 * share one), per client address otherwise.
 */
function bucketOf(tier: Tier, key: KeyWithAccount | null, ip: string): string {
  return tier === 'developer' && key ? `key:${key.lineage_id}` : `${tier}:${clientKey(ip)}`;
}

/**
 * Identifies the caller's tier, counts the request against its budget, and sends the budget on
 * every response. A key that is sent must be valid: it is never quietly treated as anonymous.
 */
export function registerAccess(app: FastifyInstance, options: AccessOptions): void {
  app.decorateRequest('access', null as unknown as AccessContext);
  const verifiers: InnerCallVerifier[] = [];
  app.decorate('acceptInnerCalls', (verify: InnerCallVerifier) => {
    verifiers.push(verify);
  });
  const lookups = new KeyLookups();
  app.addHook('onRequest', async (request, reply) => {
    const inner = innerCallOf(request, verifiers);
    if (isExempt(request)) return;
    const now = options.now();
    // The matched route, not the raw URL: /v1/%64emo/stats is the sandbox too.
    const path = request.routeOptions.url ?? request.url;
    const sandbox = path === SANDBOX_BASE || path.startsWith(`${SANDBOX_BASE}/`);
    let key: KeyWithAccount | null = null;
    let keyError: ApiError | null = null;
    try {
      key = await authenticate(options, lookups, request, now);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      keyError = error;
    }
    // A bad key still costs its sender: it is counted against the address's anonymous budget.
    const tier: Tier = sandbox ? 'sandbox' : key ? 'developer' : 'anonymous';
    if (inner?.tier === tier) {
      // Counted once already, as the request that made it; it shows that request's budget.
      setBudgetHeaders(reply, tier, inner.limit, inner.remaining, inner.resetSeconds, now);
      request.access = { tier, key, limit: inner.limit, remaining: inner.remaining, resetSeconds: inner.resetSeconds };
      if (keyError) throw keyError;
      return;
    }
    const limit = options.limits[tier];
    const hit = await countRequest(options.store, bucketOf(tier, key, request.ip), request);
    const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
    const remaining = Math.max(0, limit - hit.count);
    setBudgetHeaders(reply, tier, limit, remaining, resetSeconds, now);
    request.access = { tier, key, limit, remaining, resetSeconds };
    if (hit.count > limit) {
      options.onRefused?.(tier);
      throw new ApiError(
        429,
        'rate_limit_exceeded',
        `The ${tier} tier allows ${limit} requests per minute; this one was over.`,
        {
          suggestion:
            tier === 'developer'
              ? `Wait ${resetSeconds} s (Retry-After) and keep to the budget in the RateLimit headers.`
              : tier === 'sandbox'
                ? `Wait ${resetSeconds} s (Retry-After): the sandbox allows ${limit} requests per minute per address, with or without a key. For more, use the real API under /v1 (a free developer key allows ${options.limits.developer} requests per minute).`
                : `Wait ${resetSeconds} s (Retry-After), or get a free developer key (${options.limits.developer} requests per minute) at /developers.`,
          headers: { 'retry-after': String(resetSeconds) },
        },
      );
    }
    if (keyError) throw keyError;
  });
}
