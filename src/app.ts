import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyReply, LogController } from 'fastify';
import { stripeProvider } from './adapters/stripe.js';
import { startBackgroundWork } from './background.js';
import { type Config, publicBaseUrl, trustProxyOption } from './config.js';
import type { Db } from './db/create-db.js';
import { cachedSerializerFactory, cachedValidatorFactory } from './http/compiler-cache.js';
import { encoder } from './http/compression.js';
import { limitConnections } from './http/connections.js';
import { versionPerRequest } from './http/data-version.js';
import { Metrics } from './http/metrics.js';
import { lazyOauthServer, resourcesOf } from './http/oauth-server.js';
import { registerAccess } from './http/plugins/access.js';
import { registerCompression } from './http/plugins/compression.js';
import { docsRoutes, registerOpenApi } from './http/plugins/docs.js';
import { documentScope } from './http/plugins/documents.js';
import {
  clientErrorHandlerWith,
  frameworkErrorWith,
  MAX_HEADER_BYTES,
  registerErrorHandler,
} from './http/plugins/error-handler.js';
import { registerIdempotency } from './http/plugins/idempotency.js';
import { registerJsonBody } from './http/plugins/json-body.js';
import { registerNotFound } from './http/plugins/not-found.js';
import { registerNulGuard } from './http/plugins/nul-guard.js';
import { REDACTED_LOG_PATHS, registerObservability, requestIdOf } from './http/plugins/observability.js';
import { registerQueryGuard } from './http/plugins/query-guard.js';
import { registerResponseCache } from './http/plugins/response-cache.js';
import { registerSecurityHeaders, securityPolicy, strictPolicyUnlessPage } from './http/plugins/security-headers.js';
import { type Probe, Readiness } from './http/readiness.js';
import { reportBudget } from './http/report-budget.js';
import { type Api, configuredLimits, type RouteDeps } from './http/route-deps.js';
import { authorizationRoutes } from './http/routes/authorizations.js';
import { confirmPageRoutes } from './http/routes/confirm-page.js';
import { developerPageRoutes } from './http/routes/developers.js';
import { discoveryRoutes } from './http/routes/discovery.js';
import { draftRoutes, draftSettingsOf } from './http/routes/drafts.js';
import { eventRoutes } from './http/routes/events.js';
import { healthRoutes } from './http/routes/health.js';
import { READ_ROUTES, registerRoutes, WRITE_ROUTES } from './http/routes/index.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { notificationPageRoutes } from './http/routes/notifications.js';
import { oauthRoutes } from './http/routes/oauth.js';
import { oauthClientRoutes } from './http/routes/oauth-clients.js';
import { sandboxRoutes } from './http/routes/sandbox.js';
import { signInPageRoutes } from './http/routes/sign-in-pages.js';
import { stripeWebhookRoutes } from './http/routes/stripe-webhook.js';
import { webhookRoutes, webhookSettingsOf } from './http/routes/webhooks.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { mcpRoutes } from './mcp/http-route.js';
import { type Operation, operationOf } from './mcp/operations.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit/store.js';
import { createSandbox, type Sandbox } from './sandbox/demo-db.js';
import { COMPONENT_SCHEMAS } from './schemas/components.js';
import type { Endpoint } from './schemas/stats.js';
import { SearchIndexes } from './search/search-indexes.js';
import { relyingPartyOf } from './services/passkeys.js';
import type { PaymentProvider } from './services/payment-provider.js';

export interface AppDeps {
  db: Db;
  /** The clock every "now" comes from; tests fix it. */
  now?: () => Date;
  /** Where request counts live; in process memory when not given (one instance). */
  rateLimitStore?: RateLimitStore;
  /** The fake dataset /v1/demo/* serves; built in memory at start-up (and closed with the app) when not given. */
  sandbox?: Sandbox;
  /** Marked draining by server.ts on SIGTERM, which /readyz reports; a fresh one when not given. */
  readiness?: Readiness;
  /** Where log lines go (stdout when not given); tests read them to prove what is never logged. */
  logStream?: NodeJS.WritableStream;
  /**
   * The in-memory search indexes. When not given, the app makes its own if SEARCH_INDEX is on; it
   * fills on the first searches, which use SQL until then.
   */
  searchIndexes?: SearchIndexes;
  /**
   * Build the search index as soon as the app listens (server.ts), in the background: until it is
   * in place searches use SQL and /readyz says "warming". Otherwise the first search schedules it.
   */
  warmSearchIndex?: boolean;
  /** What sends the sign-in codes; from SMTP_URL or OUTBOX_DIR (and closed with the app) when not given. */
  mailer?: Mailer;
  /**
   * The provider that moves money: with PAYMENTS_PROVIDER=stripe, Stripe through its SDK
   * (adapters/stripe.ts) when not given; null with the manual provider.
   */
  payments?: PaymentProvider | null;
}

/** The payment provider PAYMENTS_PROVIDER names: Stripe with its key and webhook secret, or null (manual). */
function paymentProviderOf(config: Config): PaymentProvider | null {
  if (config.PAYMENTS_PROVIDER !== 'stripe' || !config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return null;
  return stripeProvider({
    secretKey: config.STRIPE_SECRET_KEY,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    apiUrl: config.STRIPE_API_URL,
  });
}

/** Builds the whole HTTP application; never listens (server.ts and tests decide how it is reached). */
export async function buildApp(config: Config, deps: AppDeps): Promise<Api> {
  // One policy for the headers of every answer: the hooks', the router errors' and those written to the socket.
  const security = securityPolicy({ corsOrigins: config.CORS_ORIGINS, publicUrl: config.PUBLIC_URL });
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            // Secrets never reach a log line, whatever a log call includes.
            redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
    // One line per request, written when its response is sent (plugins/observability.ts), with
    // the request id under request_id; Fastify's own two lines per request are off.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    requestIdHeader: false,
    genReqId: requestIdOf,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 64 * 1024,
    // Slow clients cannot hold the server: the whole request (headers and body) must arrive within
    // REQUEST_TIMEOUT_MS and its headers within HEADERS_TIMEOUT_MS, checked every second; otherwise
    // 408 and the connection is closed (clientErrorHandler). Headers and the request line together
    // are capped at 16 KiB (431).
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    http: {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    clientErrorHandler: clientErrorHandlerWith(security),
    // As long as a request line may be (Node caps headers at 16 KiB), so an over-long id reaches
    // schema validation and gets a 400 that says why instead of a 404.
    routerOptions: { maxParamLength: 16_384 },
    frameworkErrors: frameworkErrorWith(security),
    ajv: { customOptions: { removeAdditional: false, allErrors: true } },
    schemaController: {
      compilersFactory: { buildValidator: cachedValidatorFactory, buildSerializer: cachedSerializerFactory },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.server.maxConnections = config.MAX_CONNECTIONS;
  limitConnections(app.server, {
    perAddress: config.MAX_CONNECTIONS_PER_ADDRESS,
    firstByteTimeoutMs: config.CONNECTION_FIRST_BYTE_TIMEOUT_MS,
  });
  for (const schema of COMPONENT_SCHEMAS) app.addSchema(schema);
  registerErrorHandler(app);
  registerJsonBody(app);
  const metrics = new Metrics({ pool: () => deps.db.pool(), processMetrics: config.METRICS_TOKEN !== undefined });
  // First: every answer, also a refusal by a later hook, carries the request id and the security headers.
  registerObservability(app, metrics);
  registerSecurityHeaders(app, security);

  const now = deps.now ?? (() => new Date());
  const configured = configuredLimits(config);
  const { limits } = configured;
  const sandbox = deps.sandbox ?? (await createSandbox(now));
  if (!deps.sandbox) app.addHook('onClose', () => sandbox.db.close());
  const store: RateLimitStore = deps.rateLimitStore ?? new MemoryRateLimitStore();
  if (!deps.rateLimitStore) app.addHook('onClose', () => store.close());
  const version = versionPerRequest(deps.db);
  // The OAuth 2.1 authorization server (issue 31), built on its first request.
  const oauthServer = lazyOauthServer({
    db: deps.db.kysely,
    issuer: publicBaseUrl(config),
    proxy: config.TRUST_PROXY !== undefined,
  });
  registerAccess(app, {
    oauth: {
      server: oauthServer,
      resources: resourcesOf(publicBaseUrl(config)),
      defaultClientLimit: config.OAUTH_CLIENT_LIMIT_PER_MIN,
    },
    db: deps.db.kysely,
    version,
    store,
    limits,
    mcpLimit: config.MCP_RATE_LIMIT_PER_MIN,
    now,
    onRefused: (tier) => metrics.refused(tier),
  });
  registerIdempotency(app, deps.db.kysely, now);
  registerQueryGuard(app);
  registerNulGuard(app);
  const encode = encoder((coding) => metrics.compressed(coding));
  const readiness = deps.readiness ?? new Readiness();
  // While draining, every response closes its connection: a kept-alive connection that goes idle
  // after its last response would otherwise hold app.close() until the client hangs up.
  const closeWhileDraining = (reply: FastifyReply) => {
    if (readiness.draining) reply.header('connection', 'close');
  };
  const cache = registerResponseCache(app, {
    version,
    now,
    ttlMs: config.RESPONSE_CACHE_MS,
    maxBytes: config.RESPONSE_CACHE_MB * 2 ** 20,
    encode,
    // What the onSend hooks before it (security's) and after it (the one below) add to an answer.
    sealed: { before: strictPolicyUnlessPage, after: closeWhileDraining },
  });
  metrics.watchResponseCache(cache);
  // After the hooks that keep an answer's bytes as they are (idempotency, the response cache).
  registerCompression(app, encode);
  // Added before any child plugin (docs, forms), which copy the hooks there are when they are made.
  app.addHook('onSend', async (_request, reply) => closeWhileDraining(reply));

  const endpoints: Endpoint[] = [];
  // The same operations with their parameter schemas: the MCP tools are made from them.
  const operations: Operation[] = [];
  app.addHook('onRoute', (route) => {
    const operation = operationOf(route);
    if (operation) {
      operations.push(operation);
      const { method, path, operationId, summary } = operation;
      endpoints.push({ method, path, operation_id: operationId, summary });
    }
  });
  registerNotFound(app, endpoints);
  await registerOpenApi(app, config.PUBLIC_URL);

  const indexError = (err: unknown) => app.log.warn({ err }, 'search index build failed; searches use SQL meanwhile');
  const indexes =
    deps.searchIndexes ??
    (config.SEARCH_INDEX
      ? new SearchIndexes(deps.db, { minGapMs: config.SEARCH_INDEX_REFRESH_MS, onError: indexError })
      : undefined);
  if (indexes && !deps.searchIndexes) app.addHook('onClose', async () => indexes.close());
  if (indexes && deps.warmSearchIndex) {
    // Built once the server listens, not before: /healthz and /readyz answer at once, and searches
    // use SQL (correctly, only slower) until the index is in place; /readyz says "warming" meanwhile.
    app.addHook('onListen', async () => {
      const started = Date.now();
      void indexes
        .refresh()
        .then((snapshot) => {
          if (!snapshot) return;
          const { jobs, listings } = snapshot;
          app.log.info({ jobs: jobs.size, listings: listings.size, ms: Date.now() - started }, 'search index built');
        })
        .catch(indexError);
    });
  }
  const payments = deps.payments !== undefined ? deps.payments : paymentProviderOf(config);
  const routeDeps: RouteDeps = {
    base: '/v1',
    db: deps.db.kysely,
    now,
    endpoints,
    ...configured,
    payments,
    baseUrl: publicBaseUrl(config),
    countReport: reportBudget(store, config.REPORTS_PER_HOUR),
    ...(indexes && { searchIndex: async (request) => indexes.at(await version(request)) }),
  };
  const probes: Record<string, Probe> = { database: () => deps.db.ping() };
  const { ping } = store;
  if (ping) probes.redis = () => ping.call(store);
  healthRoutes(app, readiness, probes, () => (indexes === undefined ? 'off' : indexes.ready ? 'ready' : 'warming'));
  metricsRoutes(app, metrics, config.METRICS_TOKEN);
  // The documents, in a scope of their own: their own budget per address, ETags and compression.
  await app.register(async (documents: Api) => {
    await documentScope(documents, { store, perMinute: config.DOCS_RATE_LIMIT_PER_MIN, now, encode });
    await docsRoutes(documents);
    discoveryRoutes(documents, { baseUrl: publicBaseUrl(config), limits });
  });
  registerRoutes(app, READ_ROUTES, routeDeps);
  sandboxRoutes(app, routeDeps, sandbox);
  registerRoutes(app, WRITE_ROUTES, routeDeps);
  const drafts = draftSettingsOf(config);
  draftRoutes(app, routeDeps, drafts);
  webhookRoutes(app, routeDeps, webhookSettingsOf(config));
  authorizationRoutes(app, routeDeps);
  oauthClientRoutes(app, routeDeps, oauthServer);
  startBackgroundWork(app, deps.db.kysely, config, now, payments);
  // Stripe's events, in a plugin of its own: only there is a JSON body kept as the signed text.
  await app.register(stripeWebhookRoutes, { deps: routeDeps });
  eventRoutes(app, routeDeps, config);
  mcpRoutes(app, { limits, operations }, config);
  // A plugin of its own: only /developers parses form bodies, the JSON endpoints answer them 415.
  await app.register(developerPageRoutes, routeDeps);
  // The page of a draft's confirmation_url: its own plugin too, for the same reason.
  await app.register(confirmPageRoutes, { deps: routeDeps, settings: drafts });
  // The unsubscribe link of notification e-mails: form bodies (RFC 8058 one-click) only there too.
  await app.register(notificationPageRoutes, { deps: routeDeps });
  oauthRoutes(app, { server: oauthServer, issuer: publicBaseUrl(config) });
  // Sign-up, sign-in and /account (issue 31): cookies, like form bodies, are read only there.
  const mailer = deps.mailer ?? createMailer(config);
  if (!deps.mailer) app.addHook('onClose', async () => mailer.close());
  await app.register(signInPageRoutes, {
    deps: routeDeps,
    mailer,
    store,
    baseUrl: publicBaseUrl(config),
    codesPerAddress: config.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR,
    codesPerClient: config.SIGN_IN_CODES_PER_CLIENT_PER_HOUR,
    party: relyingPartyOf(publicBaseUrl(config)),
    oauth: oauthServer,
  });
  return app;
}
