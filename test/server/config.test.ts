import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  CONFIG_KEYS,
  ConfigError,
  envExample,
  environment,
  loadConfig,
  testConfig,
  trustProxyRefusal,
} from '../../src/config.js';
import { createDb, redactDatabaseUrl } from '../../src/db/create-db.js';
import { DEFAULT_CENTER, haversineKm, type LatLng, MAX_RADIUS_KM } from '../../src/domain/geo.js';
import { maskUrlPasswords } from '../../src/domain/secrets.js';
import { type CliRun, runCli } from '../helpers/admin-cli.js';

const DEFAULTS = {
  PORT: 3000,
  HOST: '127.0.0.1',
  DATABASE_URL: 'sqlite:./data/marketplace.db',
  LOG_LEVEL: 'info',
  SEED_ON_EMPTY: true,
  RATE_LIMIT_ANONYMOUS_PER_MIN: 20,
  RATE_LIMIT_DEVELOPER_PER_MIN: 100,
  RATE_LIMIT_SANDBOX_PER_MIN: 20,
  DOCS_RATE_LIMIT_PER_MIN: 60,
  MCP_RATE_LIMIT_PER_MIN: 300,
  OAUTH_CLIENT_LIMIT_PER_MIN: 3000,
  APPLICATIONS_PER_ACCOUNT_PER_HOUR: 30,
  BOOKINGS_PER_ACCOUNT_PER_HOUR: 20,
  MESSAGES_PER_ACCOUNT_PER_HOUR: 200,
  NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR: 20,
  BOOKING_REQUEST_TTL_HOURS: 48,
  REVIEW_WINDOW_DAYS: 14,
  COMPLETION_OBJECTION_HOURS: 72,
  SERIES_HORIZON_DAYS: 28,
  WAITLIST_HOLD_HOURS: 2,
  BUSY_CALENDAR_REFRESH_MINUTES: 30,
  PLATFORM_FEE_PERCENT: 10,
  PLATFORM_FEE_MIN_EUR: 1,
  CLAIM_WINDOW_HOURS: 48,
  PAYMENTS_PROVIDER: 'manual',
  NO_SHOW_WINDOW_HOURS: 48,
  SAVED_SEARCHES_PER_ACCOUNT: 20,
  DRAFT_TTL_HOURS: 24,
  DRAFTS_PENDING_PER_ACCOUNT: 20,
  REPORTS_PER_HOUR: 5,
  SIGN_IN_CODES_PER_ADDRESS_PER_HOUR: 5,
  SIGN_IN_CODES_PER_CLIENT_PER_HOUR: 20,
  DIGEST_SWEEP_MS: 60_000,
  REDIS_PREFIX: 'kmp:',
  TRUST_PROXY: 'false',
  TRUST_PROXY_ALLOW_HOP_COUNT: false,
  DATABASE_POOL_SIZE: 10,
  DATABASE_QUERY_TIMEOUT_MS: 15_000,
  DATABASE_CHANGE_NOTIFY: true,
  MIGRATE_ON_START: true,
  RESPONSE_CACHE_MS: 1_000,
  RESPONSE_CACHE_MB: 32,
  SEARCH_INDEX: true,
  SEARCH_INDEX_REFRESH_MS: 1000,
  REQUEST_TIMEOUT_MS: 30_000,
  HEADERS_TIMEOUT_MS: 10_000,
  MAX_CONNECTIONS: 4_096,
  MAX_CONNECTIONS_PER_ADDRESS: 256,
  CONNECTION_FIRST_BYTE_TIMEOUT_MS: 10_000,
  CORS_ORIGINS: '*',
  SHUTDOWN_DELAY_MS: 0,
  SHUTDOWN_TIMEOUT_MS: 10_000,
  KEY_ROTATION_GRACE_HOURS: 24,
  MAIL_FROM: 'Karlsruhe Marketplace API <api@karlsruhe-marketplace.example>',
  OUTBOX_DIR: './data/outbox',
  EVENTS_POLL_MS: 500,
  EVENTS_RETENTION_DAYS: 30,
  STREAM_HEARTBEAT_MS: 15_000,
  STREAM_MAX_SECONDS: 3_600,
  STREAMS_PER_CALLER: 5,
  WEBHOOKS_PER_ACCOUNT: 10,
  WEBHOOK_DELIVERY: true,
  NOTIFICATION_EMAILS: true,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: false,
  WEBHOOK_RETRY_BASE_MS: 30_000,
  WEBHOOK_MAX_ATTEMPTS: 13,
  WEBHOOK_TIMEOUT_MS: 10_000,
  WEBHOOK_CONCURRENCY: 16,
  WEBHOOK_IN_FLIGHT_PER_WEBHOOK: 2,
  WEBHOOK_IN_FLIGHT_PER_ACCOUNT: 4,
};

/** Asserts that loadConfig(env) throws a ConfigError and returns its message. */
function configError(env: NodeJS.ProcessEnv): string {
  let error: unknown;
  try {
    loadConfig(env);
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ConfigError, `expected a ConfigError for ${JSON.stringify(env)}, got ${String(error)}`);
  assert.ok(error.message.startsWith('Invalid configuration:\n'), error.message);
  return error.message;
}

describe('loadConfig', () => {
  test('defaults', () => {
    const config = loadConfig({});
    assert.deepEqual(config, DEFAULTS);
    assert.ok(Object.isFrozen(config));
  });

  test('empty values count as unset; unrelated variables are ignored', () => {
    assert.deepEqual(
      loadConfig({ PORT: '', HOST: '', DATABASE_URL: '', LOG_LEVEL: '', SEED_ON_EMPTY: '', PATH: '/bin', FOO: 'x' }),
      DEFAULTS,
    );
  });

  test('overrides, converted to their types', () => {
    assert.deepEqual(
      loadConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'sqlite:/var/lib/marketplace/m.db',
        LOG_LEVEL: 'debug',
        SEED_ON_EMPTY: 'false',
        RATE_LIMIT_ANONYMOUS_PER_MIN: '5',
        RATE_LIMIT_DEVELOPER_PER_MIN: '500',
        RATE_LIMIT_SANDBOX_PER_MIN: '7',
        REDIS_URL: 'redis://127.0.0.1:6379/2',
        TRUST_PROXY: '1',
        SMTP_URL: 'smtp://user:secret@mail.example.org:587',
        PUBLIC_URL: 'https://api.example.org',
      }),
      {
        ...DEFAULTS,
        PORT: 8080,
        HOST: '0.0.0.0',
        DATABASE_URL: 'sqlite:/var/lib/marketplace/m.db',
        LOG_LEVEL: 'debug',
        SEED_ON_EMPTY: false,
        RATE_LIMIT_ANONYMOUS_PER_MIN: 5,
        RATE_LIMIT_DEVELOPER_PER_MIN: 500,
        RATE_LIMIT_SANDBOX_PER_MIN: 7,
        REDIS_URL: 'redis://127.0.0.1:6379/2',
        TRUST_PROXY: '1',
        SMTP_URL: 'smtp://user:secret@mail.example.org:587',
        PUBLIC_URL: 'https://api.example.org',
      },
    );
    assert.deepEqual(loadConfig({ PORT: '0', DATABASE_URL: 'sqlite::memory:', SEED_ON_EMPTY: 'true' }), {
      ...DEFAULTS,
      PORT: 0,
      DATABASE_URL: 'sqlite::memory:',
    });
    assert.equal(loadConfig({ PORT: '65535' }).PORT, 65535);
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      assert.equal(loadConfig({ LOG_LEVEL: level }).LOG_LEVEL, level);
    }
  });

  test('testConfig: in-memory database, silent, overrides validated the same way', () => {
    assert.deepEqual(testConfig(), { ...DEFAULTS, DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
    assert.equal(testConfig({ PORT: '4000' }).PORT, 4000);
    assert.throws(() => testConfig({ PORT: 'x' }), ConfigError);
  });

  test('PORT out of range or not a number: ConfigError naming PORT', () => {
    for (const value of ['99999', '-1', 'abc', '0x10', '1e3']) {
      assert.equal(
        configError({ PORT: value }),
        `Invalid configuration:\n  PORT="${value}": must be a whole number from 0 to 65535`,
      );
    }
  });

  test('BOOKING_REQUEST_TTL_HOURS: 1 to 720 hours', () => {
    assert.equal(loadConfig({ BOOKING_REQUEST_TTL_HOURS: '1' }).BOOKING_REQUEST_TTL_HOURS, 1);
    assert.equal(loadConfig({ BOOKING_REQUEST_TTL_HOURS: '720' }).BOOKING_REQUEST_TTL_HOURS, 720);
    for (const value of ['0', '721']) {
      assert.equal(
        configError({ BOOKING_REQUEST_TTL_HOURS: value }),
        `Invalid configuration:\n  BOOKING_REQUEST_TTL_HOURS="${value}": must be a whole number from 1 to 720`,
      );
    }
  });

  test('a fractional PORT is rejected, not truncated', () => {
    assert.match(configError({ PORT: '3000.5' }), /PORT="3000\.5"/);
  });

  test('DATABASE_URL other than sqlite or postgres: ConfigError naming DATABASE_URL', () => {
    assert.equal(
      configError({ DATABASE_URL: 'mysql://x' }),
      'Invalid configuration:\n  DATABASE_URL="mysql://x": must be sqlite:<path>, sqlite::memory: or postgres://user:password@host:port/database',
    );
    assert.match(configError({ DATABASE_URL: 'sqlite:' }), /\n {2}DATABASE_URL="sqlite:": /);
    assert.match(configError({ DATABASE_URL: 'postgres:/u@h/db' }), /\n {2}DATABASE_URL="postgres:\/u@h\/db": /);
    for (const url of ['postgres://u@h/db', 'postgresql://u:p@h:5433/db?options=-c%20search_path%3Ds']) {
      assert.equal(loadConfig({ DATABASE_URL: url }).DATABASE_URL, url);
    }
  });

  test('a bad URL is shown without its password', () => {
    const message = configError({
      DATABASE_URL: 'postgres:/app:s3cret@db/x',
      REDIS_URL: 'redis//:hunter2@r',
      SMTP_URL: 'smtp:/mailer:letmein@mail',
      PORT: 'x',
    });
    for (const secret of ['s3cret', 'hunter2', 'letmein']) assert.doesNotMatch(message, new RegExp(secret));
    assert.match(message, /DATABASE_URL="postgres:\/app:\*\*\*@db\/x": /);
    assert.match(message, /REDIS_URL="redis\/\/:\*\*\*@r": /);
    assert.match(message, /PORT="x": /, 'other values are shown as given');
    assert.match(
      configError({ DATABASE_URL: 'postgres:/u@h/db?password=pw1' }),
      /DATABASE_URL="postgres:\/u@h\/db\?password=\*\*\*"/,
    );
  });

  test('maskUrlPasswords: the one masking of URL passwords in shown values and command messages', () => {
    assert.equal(
      maskUrlPasswords('connect postgres://app:s3cret@db:5432/x?sslmode=require&password=pw failed: ECONNREFUSED'),
      'connect postgres://app:***@db:5432/x?sslmode=require&password=*** failed: ECONNREFUSED',
    );
    assert.equal(maskUrlPasswords('redis//:hunter2@r'), 'redis//:***@r');
    assert.equal(maskUrlPasswords('no URL: nothing@here to mask'), 'no URL: nothing@here to mask');
  });

  test('pool size, migrations at start-up and shutdown timing', () => {
    const config = loadConfig({
      DATABASE_POOL_SIZE: '25',
      MIGRATE_ON_START: 'false',
      SHUTDOWN_DELAY_MS: '5000',
      SHUTDOWN_TIMEOUT_MS: '30000',
    });
    assert.deepEqual(
      [config.DATABASE_POOL_SIZE, config.MIGRATE_ON_START, config.SHUTDOWN_DELAY_MS, config.SHUTDOWN_TIMEOUT_MS],
      [25, false, 5000, 30000],
    );
    assert.match(
      configError({ DATABASE_POOL_SIZE: '0' }),
      /DATABASE_POOL_SIZE="0": must be a whole number from 1 to 200/,
    );
    assert.match(
      configError({ SHUTDOWN_TIMEOUT_MS: '10' }),
      /SHUTDOWN_TIMEOUT_MS="10": must be a whole number from 1000/,
    );
  });

  test('LOG_LEVEL and SEED_ON_EMPTY outside their values: ConfigError naming the variable', () => {
    assert.equal(
      configError({ LOG_LEVEL: 'loud' }),
      'Invalid configuration:\n  LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace, silent',
    );
    assert.equal(
      configError({ SEED_ON_EMPTY: 'maybe' }),
      'Invalid configuration:\n  SEED_ON_EMPTY="maybe": must be true or false',
    );
  });

  test('TRUST_PROXY: proxies by address; a hop count refused unless TRUST_PROXY_ALLOW_HOP_COUNT=true', () => {
    const refusal = (env: Record<string, string>) => trustProxyRefusal(loadConfig(env));
    for (const value of ['false', '0', '127.0.0.1', '10.0.0.0/8,fd00::/8', '::1']) {
      assert.equal(refusal({ TRUST_PROXY: value }), undefined, value);
    }
    assert.equal(
      refusal({ TRUST_PROXY: '1' }),
      "TRUST_PROXY=1 is a hop count, under which a client that reaches this instance directly picks its own rate-limit address with X-Forwarded-For. Set TRUST_PROXY to the reverse proxies' addresses or CIDRs, comma-separated (e.g. TRUST_PROXY=127.0.0.1), or TRUST_PROXY_ALLOW_HOP_COUNT=true if no client can reach this instance but through the proxy.",
    );
    assert.match(refusal({ TRUST_PROXY: '2' }) ?? '', /but through 2 proxies\.$/);
    assert.equal(refusal({ TRUST_PROXY: '2', TRUST_PROXY_ALLOW_HOP_COUNT: 'true' }), undefined);
    assert.equal(
      configError({ TRUST_PROXY_ALLOW_HOP_COUNT: 'yes' }),
      'Invalid configuration:\n  TRUST_PROXY_ALLOW_HOP_COUNT="yes": must be true or false',
    );
  });

  test('names every bad variable when several are bad', () => {
    const message = configError({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', SEED_ON_EMPTY: 'maybe' });
    const named = ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'SEED_ON_EMPTY'].filter((name) =>
      message.includes(`\n  ${name}=`),
    );
    assert.deepEqual(named, ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'SEED_ON_EMPTY'], message);
  });
});

describe('environment: the process environment over the environment file', () => {
  function folder(t: { after: (fn: () => void) => void }, files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'marketplace-env-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return dir;
  }

  test('./.env is read when it exists; the process environment wins over it', (t) => {
    const dir = folder(t, {
      '.env': '# the server and the admin command read this\nPORT=8080\nPUBLIC_URL="https://market.example.net"\n',
    });
    const config = loadConfig(environment({ PORT: '9090' }, dir));
    assert.equal(config.PORT, 9090, 'set in the process: wins');
    assert.equal(config.PUBLIC_URL, 'https://market.example.net', 'only in the file: taken, quotes removed');
  });

  test('no ./.env: the process environment alone; ENV_FILE=none reads no file', (t) => {
    assert.deepEqual(environment({ PORT: '1' }, folder(t, {})), { PORT: '1' });
    const dir = folder(t, { '.env': 'PORT=8080\n' });
    assert.deepEqual(environment({ ENV_FILE: 'none' }, dir), { ENV_FILE: 'none' });
  });

  test('ENV_FILE names the file, relative to the working directory; a file that cannot be read is a ConfigError', (t) => {
    const dir = folder(t, { 'prod.env': 'HOST=0.0.0.0\n', '.env': 'HOST=10.0.0.1\n' });
    assert.equal(loadConfig(environment({ ENV_FILE: 'prod.env' }, dir)).HOST, '0.0.0.0');
    assert.throws(
      () => environment({ ENV_FILE: 'missing.env' }, dir),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.startsWith(
          `Invalid configuration:\n  ENV_FILE="missing.env": cannot read ${join(dir, 'missing.env')}`,
        ),
    );
  });

  test('values from the file are validated like any other', (t) => {
    const dir = folder(t, { '.env': 'PORT=eighty\n' });
    assert.equal(
      configError(environment({}, dir)),
      'Invalid configuration:\n  PORT="eighty": must be a whole number from 0 to 65535',
    );
  });
});

/** Runs the seed CLI as a child process with DATABASE_URL set; output collected (not a TTY). */
const seedCli = (args: readonly string[], databaseUrl: string): Promise<CliRun> =>
  runCli('src/cli/seed.ts', [...args], { DATABASE_URL: databaseUrl });

/** Every table of the file, rows in insertion order. */
async function dumpFile(path: string) {
  const db = createDb(`sqlite:${path}`);
  try {
    const out: Record<string, unknown[]> = {};
    for (const table of ['jobs', 'owners', 'listings', 'helpers', 'helper_categories', 'meta']) {
      out[table] = (await sql`select * from ${sql.table(table)} order by rowid`.execute(db.kysely)).rows;
    }
    return out;
  } finally {
    await db.close();
  }
}

const SMALL = ['--jobs', '50', '--listings', '20', '--helpers', '10', '--completed', '30', '--anchor', '2026-11-20'];

describe('seed CLI', () => {
  test('seeds a fresh file, refuses to seed it again without --replace, reseeds it with --replace', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'marketplace-seed-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'nested', 'm.db');
    const url = `sqlite:${file}`;

    const first = await seedCli(SMALL, url);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      new RegExp(
        `^Seeded ${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 50 open jobs, 30 completed jobs, 20 listings, 10 helpers, region karlsruhe \\(seed 20261120, anchor 2026-11-19T23:00:00\\.000Z\\) in \\d+\\.\\d s\\.\\n$`,
      ),
    );
    // Not a terminal: one line per phase and tenth of progress.
    assert.equal(
      first.stderr,
      [
        'helpers: 10/10 (100%)',
        'completed jobs: 30/30 (100%)',
        'cancelled jobs: 2/2 (100%)',
        // The applications and reviews of those jobs, and the bookings and reviews of the listings.
        'helper history: 77/77 (100%)',
        'open jobs: 50/50 (100%)',
        'assigned and expired jobs: 4/4 (100%)',
        'listings: 20/20 (100%)',
        'lending history: 161/161 (100%)',
        '',
      ].join('\n'),
    );

    const seeded = await dumpFile(file);
    const jobs = seeded.jobs as { status: string; deadline: string | null }[];
    assert.deepEqual(
      {
        open: jobs.filter((j) => j.status === 'open').length,
        openAtAnchor: jobs.filter(
          (j) => j.status === 'open' && (j.deadline === null || j.deadline > '2026-11-19T23:00:00.000Z'),
        ).length,
        listings: seeded.listings?.length,
        helpers: seeded.helpers?.length,
        meta: seeded.meta,
      },
      {
        open: 50,
        openAtAnchor: 50,
        listings: 20,
        helpers: 10,
        meta: [
          {
            key: 'seed',
            value: JSON.stringify({
              seed: 20261120,
              jobs: 50,
              listings: 20,
              helpers: 10,
              completedJobs: 30,
              anchor: '2026-11-19T23:00:00.000Z',
              region: 'karlsruhe',
            }),
          },
        ],
      },
    );

    const again = await seedCli(SMALL, url);
    assert.equal(again.code, 1);
    assert.equal(again.stdout, '');
    assert.ok(
      again.stderr.startsWith(
        'The database already holds marketplace data. Add --replace to delete it and seed anew.\n\nUsage: npm run seed --',
      ),
      again.stderr,
    );
    assert.deepEqual(await dumpFile(file), seeded);

    const replaced = await seedCli([...SMALL, '--replace'], url);
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.match(
      replaced.stdout,
      /^Seeded .*: 50 open jobs, 30 completed jobs, 20 listings, 10 helpers, region karlsruhe /,
    );
    // Same seed and anchor: the very same rows, nothing left over from the first run.
    assert.deepEqual(await dumpFile(file), seeded);
  });

  test('--region bw spreads the rows over Baden-Wuerttemberg, beyond the service area', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'marketplace-seed-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'bw.db');
    const run = await seedCli(
      ['--region', 'bw', '--jobs', '2000', '--listings', '500', '--anchor', '2026-11-20'],
      `sqlite:${file}`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /2000 open jobs, .*500 listings, .*region bw/);
    const rows = await dumpFile(file);
    const places = [...(rows.jobs as LatLng[]), ...(rows.listings as LatLng[])];
    const far = places.filter((p) => haversineKm(DEFAULT_CENTER, p) > MAX_RADIUS_KM);
    // The state's towns hold most people; the service area a sixth or so.
    assert.ok(far.length > places.length * 0.5, `${far.length} of ${places.length} beyond 50 km`);
    assert.ok(far.length < places.length * 0.95, `${far.length} of ${places.length} beyond 50 km`);
    for (const p of places) {
      assert.ok(p.lat > 47.4 && p.lat < 49.9 && p.lng > 7.4 && p.lng < 10.6, `inside the state: ${p.lat}, ${p.lng}`);
    }
    const stuttgart = places.filter((p) => haversineKm({ lat: 48.7758, lng: 9.1829 }, p) < 15).length;
    assert.ok(stuttgart > places.length * 0.05, `Stuttgart has its share: ${stuttgart}`);
  });

  test('bad arguments fail with a clear message and leave the database alone', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'marketplace-seed-cli-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'm.db');
    const cases: [string[], string][] = [
      // parseArgs refuses a value that starts with a dash; its message names the option and the fix.
      [['--jobs', '-3'], "Option '--jobs' argument is ambiguous."],
      [['--jobs=-3'], "--jobs must be a whole number from 0 to 5000000; got '-3'."],
      [['--jobs', '2.5'], "--jobs must be a whole number from 0 to 5000000; got '2.5'."],
      [['--anchor', '2026-02-30'], "--anchor must be a date as YYYY-MM-DD; got '2026-02-30'."],
      [['--anchor', '20.11.2026'], "--anchor must be a date as YYYY-MM-DD; got '20.11.2026'."],
      [['--jobs-count', '5'], "Unknown option '--jobs-count'"],
      [['--region', 'bavaria'], "--region must be one of karlsruhe, bw; got 'bavaria'."],
    ];
    const runs = await Promise.all(cases.map(([args]) => seedCli(args, `sqlite:${file}`)));
    assert.deepEqual(
      runs.map((run) => ({ code: run.code, stdout: run.stdout, firstLine: run.stderr.split('\n')[0] })),
      cases.map(([, message]) => ({ code: 1, stdout: '', firstLine: message })),
    );
    for (const run of runs) assert.match(run.stderr, /\n\nUsage: npm run seed -- /);
    assert.equal(existsSync(file), false);
  });
});

test('redactDatabaseUrl: what commands print of a database URL', () => {
  assert.equal(redactDatabaseUrl('sqlite:./data/m.db'), 'sqlite:./data/m.db');
  assert.equal(redactDatabaseUrl('postgres://app@db:5432/m'), 'postgres://app@db:5432/m');
  assert.equal(
    redactDatabaseUrl('postgres://app:s3cret@db:5432/m?password=pw&sslmode=require'),
    'postgres://app:***@db:5432/m?password=***&sslmode=require',
  );
  assert.equal(redactDatabaseUrl('postgres://app:s3cret@[bad'), 'postgres://(unparseable URL)');
});

test('.env.example lists every setting at its default, as envExample() writes it', () => {
  assert.equal(readFileSync('.env.example', 'utf8'), envExample());
  for (const key of CONFIG_KEYS) assert.match(envExample(), new RegExp(`^# ${key}=`, 'm'));
});
