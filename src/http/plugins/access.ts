import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { API_KEY_PREFIX, hashApiKey, isWellFormedApiKey } from '../../domain/api-keys.js';
import type { Tier, TierLimits } from '../../domain/tiers.js';
import type { RateLimitStore } from '../../rate-limit/store.js';
import type { Database } from '../../services/database.js';
import { ApiError } from '../../services/errors.js';
import { type KeyWithAccount, keyOfHash, keyState } from '../../services/keys.js';
import { clientKey, countRequest, setBudgetHeaders } from '../budget.js';
import { SANDBOX_BASE } from '../sandbox-naming.js';
import { type OauthAccess, type OauthGrant, oauthTokenOf, personOfToken } from './oauth-access.js';

export interface AccessContext {
  tier: Tier;
  /**
   * The calling key and its account (developer tier only). For an OAuth access token, a stand-in
   * acting as the person: its id `oauth:<grant>`, its lineage (budget) the client and person.
   */
  key: KeyWithAccount | null;
  /** Set when the request came with an OAuth access token: which app, for which grant, with what scopes. */
  oauth?: OauthGrant;
  /** The budget the request counted against: its tier's, or the MCP endpoint's (`budget: 'mcp'`). */
  limit: number;
  remaining: number;
  resetSeconds: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    access: AccessContext;
  }
  interface FastifyContextConfig {
    /**
     * The budget a route's requests count against. Without it: the caller's tier budget (the
     * sandbox's for /v1/demo/*). `exempt`: none (liveness, readiness, the token-protected
     * metrics); `documents`: the documents' own budget (set on every route of the documents'
     * scope, plugins/documents.ts), not the tiers'; `mcp`: the MCP endpoint's protocol messages,
     * its caller identified as for its tier but counted against a budget of their own (per key or
     * address, MCP_RATE_LIMIT_PER_MIN), not the tier's: the work a message asks for is counted by
     * the REST requests its tool calls make, each against the tier as usual.
     */
    budget?: 'tier' | 'exempt' | 'documents' | 'mcp';
    /**
     * What a suspended account may still do (its key is otherwise refused with 403): read who it
     * is, its decisions and data, appeal (DSA Art. 20), and have its data erased (GDPR Art. 17;
     * the DSA records of the suspension are kept, as for any erasure). HEAD stays refused.
     */
    openWhileSuspended?: boolean;
  }
}

/** The policy name of the MCP endpoint's budget in the RateLimit headers, next to the tiers'. */
const MCP_POLICY = 'mcp';

export interface AccessOptions {
  db: Kysely<Database>;
  /** The database's data version as of the request (Db.version): key lookups are reused while it stays the same. */
  version: (request: FastifyRequest) => Promise<string>;
  store: RateLimitStore;
  limits: TierLimits;
  /** Requests per minute per key or address on the routes of `budget: 'mcp'` (MCP_RATE_LIMIT_PER_MIN). */
  mcpLimit: number;
  now: () => Date;
  /** Told about each request refused with 429 (metrics). */
  onRefused?: (tier: Tier) => void;
  /** The authorization server whose access tokens /v1 and /mcp take (issue 31). */
  oauth?: OauthAccess;
}

/** Whether the route is outside the budgets counted here (its `budget` option). */
function isExempt(request: FastifyRequest): boolean {
  const budget = request.routeOptions.config?.budget;
  return budget === 'exempt' || budget === 'documents';
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
    const row = await keyOfHash(db, hash);
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
  const token = oauthTokenOf(options.oauth, request);
  if (token !== undefined && options.oauth) {
    return personOfToken(options.db, options.oauth, request, token, openWhileSuspended(request));
  }
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
  if (row.account.suspended_at !== null && !openWhileSuspended(request)) {
    throw new ApiError(
      403,
      'account_suspended',
      `This account was suspended by a moderation decision on ${row.account.suspended_at}.`,
      {
        param: header,
        suggestion:
          'Read the statement of reasons at GET /v1/me/moderation-decisions and appeal it there (POST /v1/me/moderation-decisions/{id}/appeals); your data stays available at GET /v1/me/export, and DELETE /v1/me erases it.',
      },
    );
  }
  return row;
}

/** Whether the route is open to a suspended account (its `openWhileSuspended` option). */
function openWhileSuspended(request: FastifyRequest): boolean {
  return request.routeOptions.config?.openWhileSuspended === true && request.method !== 'HEAD';
}

/**
 * The budget a request counts against: per key for developers (a rotated key and its successor
 * share one), per client address otherwise.
 */
function bucketOf(tier: Tier, key: KeyWithAccount | null, ip: string): string {
  return tier === 'developer' && key ? `key:${key.lineage_id}` : `${tier}:${clientKey(ip)}`;
}

function tooMany(message: string, suggestion: string, resetSeconds: number): ApiError {
  return new ApiError(429, 'rate_limit_exceeded', message, {
    suggestion,
    headers: { 'retry-after': String(resetSeconds) },
  });
}

/** The 429 of a tier budget: what helps is waiting, and for anonymous callers a key. */
function tierSpent(tier: Tier, limit: number, resetSeconds: number, limits: TierLimits): ApiError {
  return tooMany(
    `The ${tier} tier allows ${limit} requests per minute; this one was over.`,
    tier === 'developer'
      ? `Wait ${resetSeconds} s (Retry-After) and keep to the budget in the RateLimit headers.`
      : tier === 'sandbox'
        ? `Wait ${resetSeconds} s (Retry-After): the sandbox allows ${limit} requests per minute per address, with or without a key. For more, use the real API under /v1 (a free developer key allows ${limits.developer} requests per minute).`
        : `Wait ${resetSeconds} s (Retry-After), or get a free developer key (${limits.developer} requests per minute) at /developers.`,
    resetSeconds,
  );
}

/** The 429 of the MCP budget: a client sending far more messages than its tool calls need. */
function mcpSpent(limit: number, resetSeconds: number): ApiError {
  return tooMany(
    `/mcp allows ${limit} requests per minute per key or address; this one was over.`,
    `Wait ${resetSeconds} s (Retry-After). Tool calls count against your tier budget, every other message only against this one: initialize once, list the tools once, and do not poll.`,
    resetSeconds,
  );
}

/** The policy name of an OAuth app's ceiling in the RateLimit headers. */
const APP_POLICY = 'oauth-app';

/**
 * An OAuth app's requests across all its people count against its ceiling too (issue 31): each
 * person has the developer tier's budget with the app, and the app as a whole no more than the
 * operator allows. Over it: 429, and the headers name the app's policy.
 */
async function countApp(
  options: AccessOptions,
  app: OauthGrant,
  request: FastifyRequest,
  reply: FastifyReply,
  now: Date,
): Promise<void> {
  const { ceiling } = app;
  const hit = await countRequest(options.store, `${APP_POLICY}:${app.clientId}`, request);
  if (hit.count <= ceiling) return;
  const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
  setBudgetHeaders(reply, APP_POLICY, ceiling, 0, resetSeconds, now);
  options.onRefused?.('developer');
  throw tooMany(
    `The app ${app.clientId} may make ${ceiling} requests per minute across all its people; this one was over.`,
    `Wait ${resetSeconds} s (Retry-After). The operator sets an app's ceiling (npm run admin -- clients limit).`,
    resetSeconds,
  );
}

/**
 * Identifies the caller's tier, counts the request against its budget (the tier's, or the MCP
 * endpoint's for the routes that say so), and sends the budget on every response. A key that
 * is sent must be valid: it is never quietly treated as anonymous.
 */
export function registerAccess(app: FastifyInstance, options: AccessOptions): void {
  app.decorateRequest('access', null as unknown as AccessContext);
  const lookups = new KeyLookups();
  app.addHook('onRequest', async (request, reply) => {
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
    const mcp = request.routeOptions.config?.budget === 'mcp';
    const bucket = bucketOf(tier, key, request.ip);
    const limit = mcp ? options.mcpLimit : options.limits[tier];
    const hit = await countRequest(options.store, mcp ? `${MCP_POLICY}:${bucket}` : bucket, request);
    const resetSeconds = Math.max(1, Math.ceil(hit.resetMs / 1000));
    const remaining = Math.max(0, limit - hit.count);
    setBudgetHeaders(reply, mcp ? MCP_POLICY : tier, limit, remaining, resetSeconds, now);
    request.access = {
      tier,
      key,
      limit,
      remaining,
      resetSeconds,
      ...(key && 'oauth' in key && { oauth: key.oauth as OauthGrant }),
    };
    if (hit.count > limit) {
      if (mcp) throw mcpSpent(limit, resetSeconds);
      options.onRefused?.(tier);
      throw tierSpent(tier, limit, resetSeconds, options.limits);
    }
    if (keyError) throw keyError;
    const app = request.access.oauth;
    if (app && !mcp) await countApp(options, app, request, reply, now);
  });
}
