import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import { maskUrlPasswords } from './domain/secrets.js';

const ConfigSchema = Type.Object({
  // Read by environment() before the rest; listed here so it is documented and validated like the others.
  ENV_FILE: Type.Optional(
    Type.String({
      minLength: 1,
      description: "a file of KEY=value lines (default ./.env when it exists; 'none' reads no file)",
    }),
  ),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '127.0.0.1' }),
  DATABASE_URL: Type.String({
    pattern: '^(sqlite:.+|postgres(ql)?://.+)$',
    default: 'sqlite:./data/marketplace.db',
    description: 'sqlite:<path>, sqlite::memory: or postgres://user:password@host:port/database',
  }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DATABASE_QUERY_TIMEOUT_MS: Type.Integer({ minimum: 500, maximum: 600_000, default: 15_000 }),
  DATABASE_CHANGE_NOTIFY: Type.Boolean({
    default: true,
    description:
      'PostgreSQL: learn of writes by LISTEN/NOTIFY (no round trip per request); false behind a pooler in transaction mode, which does not deliver notifications',
  }),
  MIGRATE_ON_START: Type.Boolean({ default: true }),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { default: 'info' }),
  SEED_ON_EMPTY: Type.Boolean({ default: true }),
  RATE_LIMIT_ANONYMOUS_PER_MIN: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
  RATE_LIMIT_DEVELOPER_PER_MIN: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 100 }),
  RATE_LIMIT_SANDBOX_PER_MIN: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
  DOCS_RATE_LIMIT_PER_MIN: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 60 }),
  // Requests to /mcp per key or address (issue 16): protocol messages; a tool call counts against the tier too.
  MCP_RATE_LIMIT_PER_MIN: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 300 }),
  // Requests per minute of one OAuth app across all its people (issue 31); `npm run admin -- clients limit` sets one app's own.
  OAUTH_CLIENT_LIMIT_PER_MIN: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 3000 }),
  APPLICATIONS_PER_ACCOUNT_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 30 }),
  BOOKINGS_PER_ACCOUNT_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
  MESSAGES_PER_ACCOUNT_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 200 }),
  NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 20 }),
  // A request the owner leaves unanswered this long expires and frees its days (issue 14).
  BOOKING_REQUEST_TTL_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 48 }),
  // Days after a job's completion or a booking's return in which both sides may review (issue 17).
  REVIEW_WINDOW_DAYS: Type.Integer({ minimum: 1, maximum: 90, default: 14 }),
  // Hours an accepted helper has to object to a job's completion; without an objection it is final then (issue 30, 3).
  COMPLETION_OBJECTION_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 72 }),
  // Days ahead a job series posts its occurrences as jobs (issue 35); at most 30, the commercial accounts' horizon.
  SERIES_HORIZON_DAYS: Type.Integer({ minimum: 1, maximum: 30, default: 28 }),
  // Hours the first on a waiting list holds a listing's time that came free before the next is offered it (issue 35).
  WAITLIST_HOLD_HOURS: Type.Integer({ minimum: 1, maximum: 72, default: 2 }),
  // Minutes between two fetches of an owner's or helper's own busy calendar (issue 35).
  BUSY_CALENDAR_REFRESH_MINUTES: Type.Integer({ minimum: 5, maximum: 1440, default: 30 }),
  // The platform's fee on a payment (issue 32): percent of the amount, half up to the cent, at least the minimum in whole euros.
  PLATFORM_FEE_PERCENT: Type.Integer({ minimum: 0, maximum: 50, default: 10 }),
  PLATFORM_FEE_MIN_EUR: Type.Integer({ minimum: 0, maximum: 100, default: 1 }),
  // Hours after a booking's return in which its owner may claim on the deposit (issue 32).
  CLAIM_WINDOW_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 48 }),
  // Who moves the money (issue 32): manual (the parties settle outside, the default) or stripe
  // (Stripe Connect; then STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are needed).
  PAYMENTS_PROVIDER: Type.String({ enum: ['manual', 'stripe'], default: 'manual' }),
  STRIPE_SECRET_KEY: Type.Optional(
    Type.String({ pattern: '^(sk|rk)_(test|live)_.+', description: 'a Stripe secret key (sk_test_..., sk_live_...)' }),
  ),
  STRIPE_WEBHOOK_SECRET: Type.Optional(
    Type.String({ pattern: '^whsec_.+', description: "the webhook endpoint's signing secret (whsec_...)" }),
  ),
  // Another Stripe API host, e.g. the stand-in of the tests (http://127.0.0.1:12111); unset: api.stripe.com.
  STRIPE_API_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]+$', description: 'http(s)://host:port' })),
  // Hours after a job's time in which either side may report that the other did not come (issue 32).
  NO_SHOW_WINDOW_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 48 }),
  // Saved searches an account may keep (issue 18).
  SAVED_SEARCHES_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1_000, default: 20 }),
  // Drafts a person confirms (issue 21): how long a confirmation link works, and how many may wait per account.
  DRAFT_TTL_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 24 }),
  DRAFTS_PENDING_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1_000, default: 20 }),
  // Reports (DSA notices) one client address, or one key, may file per hour (issue 19).
  REPORTS_PER_HOUR: Type.Integer({ minimum: 1, maximum: 10_000, default: 5 }),
  // Sign-up and sign-in codes (issue 31): e-mails one address may be sent, and one client address may ask for, per hour.
  SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: Type.Integer({ minimum: 1, maximum: 1_000, default: 5 }),
  SIGN_IN_CODES_PER_CLIENT_PER_HOUR: Type.Integer({ minimum: 1, maximum: 100_000, default: 20 }),
  // How often each instance looks for accounts due for their daily digest e-mail of saved-search matches.
  DIGEST_SWEEP_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 60_000 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://.+', description: 'redis://host:port[/db]' })),
  REDIS_PREFIX: Type.String({
    pattern: '^[A-Za-z0-9:_-]{1,64}$',
    default: 'kmp:',
    description: 'up to 64 of A-Z a-z 0-9 : _ -',
  }),
  TRUST_PROXY: Type.String({
    pattern: '^(false|[0-9]{1,2}|[0-9A-Fa-f.:/]+(,[0-9A-Fa-f.:/]+)*)$',
    default: 'false',
    description:
      "false, or the reverse proxies' addresses/CIDRs, comma-separated (e.g. 127.0.0.1 or 10.0.0.0/8); a number of proxy hops only with TRUST_PROXY_ALLOW_HOP_COUNT=true",
  }),
  // A hop count believes X-Forwarded-For from anyone who reaches the instance, the proxy or not: only on request.
  TRUST_PROXY_ALLOW_HOP_COUNT: Type.Boolean({ default: false }),
  RESPONSE_CACHE_MS: Type.Integer({ minimum: 0, maximum: 60_000, default: 1_000 }),
  RESPONSE_CACHE_MB: Type.Integer({ minimum: 1, maximum: 1_024, default: 32 }),
  SEARCH_INDEX: Type.Boolean({ default: true }),
  SEARCH_INDEX_REFRESH_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 1_000 }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 30_000 }),
  HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 120_000, default: 10_000 }),
  MAX_CONNECTIONS: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 4_096 }),
  MAX_CONNECTIONS_PER_ADDRESS: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 256 }),
  CONNECTION_FIRST_BYTE_TIMEOUT_MS: Type.Integer({ minimum: 500, maximum: 600_000, default: 10_000 }),
  METRICS_TOKEN: Type.Optional(
    Type.String({ pattern: '^[\\x21-\\x7e]{32,256}$', description: '32 to 256 visible ASCII characters' }),
  ),
  CORS_ORIGINS: Type.String({
    pattern: '^(\\*|https?://[^,/\\s]+(,https?://[^,/\\s]+)*)$',
    default: '*',
    description: '* or a comma-separated list of origins such as https://app.example.org',
  }),
  SHUTDOWN_DELAY_MS: Type.Integer({ minimum: 0, maximum: 120_000, default: 0 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 1_000, maximum: 600_000, default: 10_000 }),
  KEY_ROTATION_GRACE_HOURS: Type.Integer({ minimum: 0, maximum: 720, default: 24 }),
  SMTP_URL: Type.Optional(
    Type.String({ pattern: '^smtps?://.+', description: 'smtp://user:pass@host:port or smtps://...' }),
  ),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Karlsruhe Marketplace API <api@karlsruhe-marketplace.example>' }),
  OUTBOX_DIR: Type.String({ minLength: 1, default: './data/outbox' }),
  // Web push (issue 36): the VAPID key pair pushes are signed with (both or neither; neither: made
  // on first need and stored in the database) and the contact push services may reach (default:
  // mailto: the address of MAIL_FROM).
  VAPID_PUBLIC_KEY: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{86,88}$', description: 'a P-256 public key, base64url' }),
  ),
  VAPID_PRIVATE_KEY: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_-]{42,44}$', description: 'its private key, base64url' }),
  ),
  VAPID_SUBJECT: Type.Optional(
    Type.String({ pattern: '^(mailto:|https://).+', description: 'mailto:... or https://...' }),
  ),
  PUBLIC_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^/]+.*[^/]$',
      description: 'the public base URL, e.g. https://api.example.org (no trailing slash)',
    }),
  ),
  // Events (issue 8): the outbox is read this often by the SSE streams and the webhook worker.
  EVENTS_POLL_MS: Type.Integer({ minimum: 20, maximum: 60_000, default: 500 }),
  EVENTS_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3_650, default: 30 }),
  STREAM_HEARTBEAT_MS: Type.Integer({ minimum: 100, maximum: 300_000, default: 15_000 }),
  STREAM_MAX_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 3_600 }),
  STREAMS_PER_CALLER: Type.Integer({ minimum: 1, maximum: 1_000, default: 5 }),
  WEBHOOKS_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1_000, default: 10 }),
  WEBHOOK_DELIVERY: Type.Boolean({ default: true }),
  // Whether this instance plans and e-mails notifications (issue 36); what is older than a day when read is not sent.
  NOTIFICATION_EMAILS: Type.Boolean({ default: true }),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Boolean({ default: false }),
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 10, maximum: 3_600_000, default: 30_000 }),
  WEBHOOK_MAX_ATTEMPTS: Type.Integer({ minimum: 1, maximum: 50, default: 13 }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  // Fair delivery (issue 14): attempts in flight at once per instance, and at most so many of one webhook or account.
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1_000, default: 16 }),
  WEBHOOK_IN_FLIGHT_PER_WEBHOOK: Type.Integer({ minimum: 1, maximum: 1_000, default: 2 }),
  WEBHOOK_IN_FLIGHT_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1_000, default: 4 }),
});

export type Config = Readonly<Static<typeof ConfigSchema>>;
type ConfigKey = keyof Static<typeof ConfigSchema>;

/** Every environment variable the service reads. */
export const CONFIG_KEYS = Object.freeze(Object.keys(ConfigSchema.properties) as ConfigKey[]);

export class ConfigError extends Error {}

interface FieldSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  description?: string;
}

/** Text to typed value, strictly: "3000.5" or "0x10" stay strings so validation refuses them. */
function convert(schema: FieldSchema, raw: string): unknown {
  if (schema.type === 'integer') return /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'boolean') return /^(true|1)$/i.test(raw) ? true : /^(false|0)$/i.test(raw) ? false : raw;
  return raw;
}

function expectation(schema: FieldSchema): string {
  if (schema.enum) return `must be one of ${schema.enum.join(', ')}`;
  if (schema.type === 'integer') return `must be a whole number from ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return 'must be true or false';
  return schema.description ? `must be ${schema.description}` : 'must be a non-empty text';
}

/**
 * A value as an error message may show it: URLs (database, Redis, SMTP) lose their passwords,
 * also when they are too malformed to parse, since a typo is exactly when this message appears;
 * tokens are not shown at all.
 */
function shown(key: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (key.endsWith('_TOKEN') || key.endsWith('_SECRET') || key.endsWith('_SECRET_KEY') || key.endsWith('_PRIVATE_KEY'))
    return `(${value.length} characters, not shown)`;
  return key.endsWith('_URL') ? maskUrlPasswords(value) : value;
}

/**
 * The process environment over the variables of the environment file: ENV_FILE when set (a file
 * that cannot be read is a ConfigError), else ./.env when it exists; ENV_FILE=none reads no file.
 * The server and every command (admin, migrate, seed, mcp) read their configuration through it, so
 * an approval e-mail sent by `npm run admin` links to the PUBLIC_URL (or PORT) the server runs with.
 * Parsed by node:util parseEnv, the dotenv syntax Node's own --env-file reads.
 */
export function environment(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): NodeJS.ProcessEnv {
  const named = env.ENV_FILE;
  if (named === 'none') return env;
  const path = resolve(cwd, named || '.env');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (!named && (error as NodeJS.ErrnoException).code === 'ENOENT') return env;
    throw new ConfigError(
      `Invalid configuration:\n  ENV_FILE=${JSON.stringify(named ?? '.env')}: cannot read ${path} (${(error as Error).message}); name a readable file of KEY=value lines, or ENV_FILE=none`,
    );
  }
  // Variables set in the process win over the file, as with node --env-file.
  return { ...parseEnv(text), ...env };
}

/** Reads and validates the environment once; the only place that touches process.env (through environment()). */
export function loadConfig(env: NodeJS.ProcessEnv = environment()): Config {
  const properties = ConfigSchema.properties as unknown as Record<ConfigKey, FieldSchema & TSchema>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(properties) as ConfigKey[]) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = convert(properties[key], value);
  }
  const config = Value.Default(ConfigSchema, raw);
  const required = new Set<string>(ConfigSchema.required ?? []);
  const problems = (Object.keys(properties) as ConfigKey[])
    .filter((key) => {
      const value = (config as Record<string, unknown>)[key];
      if (value === undefined) return required.has(key);
      return !Value.Check(properties[key], value);
    })
    .map((key) => `${key}=${JSON.stringify(shown(key, env[key]))}: ${expectation(properties[key])}`);
  const payments = config as Record<string, unknown>;
  if (payments.PAYMENTS_PROVIDER === 'stripe') {
    for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (payments[key] === undefined) problems.push(`${key} is needed with PAYMENTS_PROVIDER=stripe`);
    }
  }
  if ((payments.VAPID_PUBLIC_KEY === undefined) !== (payments.VAPID_PRIVATE_KEY === undefined)) {
    problems.push(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither (then they are made and stored)',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return Object.freeze(config as Static<typeof ConfigSchema>);
}

/**
 * Fastify's trustProxy from TRUST_PROXY: never `true`, which would believe the left-most, client-written
 * X-Forwarded-For entry; a hop count or the proxies' addresses take the address the proxy saw.
 */
export function trustProxyOption(value: string): false | string | ((address: string, hop: number) => boolean) {
  if (value === 'false') return false;
  if (!/^[0-9]+$/.test(value)) return value;
  const hops = Number(value);
  return (_address, hop) => hop < hops;
}

/**
 * Why the server must not start with this TRUST_PROXY, or undefined. A hop count trusts the socket's
 * peer whoever it is: a client that reaches the instance directly, past the proxy, writes its own
 * X-Forwarded-For and picks the address its rate limits count. Proxies named by address do not have
 * that hole, so a hop count needs TRUST_PROXY_ALLOW_HOP_COUNT=true (every path to the instance goes
 * through that many proxies). One line, for the server's start-up error.
 */
export function trustProxyRefusal(
  config: Pick<Config, 'TRUST_PROXY' | 'TRUST_PROXY_ALLOW_HOP_COUNT'>,
): string | undefined {
  const value = config.TRUST_PROXY;
  if (!/^[0-9]+$/.test(value) || Number(value) === 0 || config.TRUST_PROXY_ALLOW_HOP_COUNT) return undefined;
  return `TRUST_PROXY=${value} is a hop count, under which a client that reaches this instance directly picks its own rate-limit address with X-Forwarded-For. Set TRUST_PROXY to the reverse proxies' addresses or CIDRs, comma-separated (e.g. TRUST_PROXY=127.0.0.1), or TRUST_PROXY_ALLOW_HOP_COUNT=true if no client can reach this instance but through ${value === '1' ? 'the proxy' : `${value} proxies`}.`;
}

/**
 * The address people reach the API at: PUBLIC_URL, or the listening address when it is unset
 * (a wildcard listen address names no host, so the loopback one stands in).
 */
export function publicBaseUrl(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const host = config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST === '::' ? '[::1]' : config.HOST;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${config.PORT}`;
}

/** A configuration for tests and tools: defaults plus overrides, validated the same way. */
export function testConfig(overrides: Partial<Record<ConfigKey, string>> = {}): Config {
  return loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', ...overrides });
}

/**
 * The text of `.env.example`: every setting with what it accepts, commented out at its default (a
 * setting without a default is shown empty). A test keeps the file equal to it.
 */
export function envExample(): string {
  const properties = ConfigSchema.properties as unknown as Record<ConfigKey, FieldSchema & { default?: unknown }>;
  const lines = [
    '# Every setting of the server and its commands, at its default. Copy to .env and uncomment what you change;',
    '# variables set in the process win over the file. docs/operations.md#configuration says what each one does.',
  ];
  for (const key of CONFIG_KEYS) {
    const schema = properties[key];
    lines.push('', `# ${expectation(schema).replace(/^must be /, '')}`);
    lines.push(`# ${key}=${schema.default === undefined ? '' : String(schema.default)}`);
  }
  return `${lines.join('\n')}\n`;
}
