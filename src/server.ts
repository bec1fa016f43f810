import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, publicBaseUrl, trustProxyRefusal } from './config.js';
import { redactDatabaseUrl } from './db/create-db.js';
import { openDatabase, SchemaBehindError } from './db/prepare.js';
import { maskUrlPasswords } from './domain/secrets.js';
import { Readiness } from './http/readiness.js';
import { RedisRateLimitStore } from './rate-limit/redis-store.js';
import { MemoryRateLimitStore } from './rate-limit/store.js';
import { type Progress, seedFirstStart } from './seed/seed-database.js';

/** The oldest Node.js major still supported upstream; older ones run (and are tested) but are warned about. */
const OLDEST_SUPPORTED_NODE = 22;

/**
 * Log lines before the app (and its logger) exist, in the same JSON shape and level: the Node.js
 * end-of-life warning and the seeding of a first start, which takes a while and must not be silent.
 */
function startupLogger(level: string) {
  return pino({ level, base: { pid: process.pid } });
}

/** The seeding's progress: a line when it starts, one per finished phase, and one at the end. */
function seedingLog(log: ReturnType<typeof startupLogger>): Progress {
  const started = Date.now();
  let first = true;
  return (phase, done, total) => {
    if (first) {
      first = false;
      log.info('empty database: seeding demo data (SEED_ON_EMPTY=true), this takes a while on first start');
    }
    if (done >= total)
      log.info({ phase, rows: total, seconds: Math.round((Date.now() - started) / 1000) }, `seeded ${phase}`);
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const trustRefused = trustProxyRefusal(config);
  if (trustRefused) throw new StartupError(`Failed to start: ${trustRefused}`);
  const log = startupLogger(config.LOG_LEVEL);
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  if (nodeMajor < OLDEST_SUPPORTED_NODE) {
    log.warn(
      { node: process.versions.node },
      `Node.js ${nodeMajor} is past its end of life (Node 20: April 2026) and gets no security fixes: run this server on Node 24 (tested) or 22`,
    );
  }
  // An idle pooled connection that breaks (the database restarted) is reported here, not thrown:
  // the pool replaces it. Held until the app's logger exists.
  const poolErrors: Error[] = [];
  let reportPoolError: (error: Error) => void = (error) => {
    poolErrors.push(error);
  };
  const db = await failingAs(`the database at ${redactDatabaseUrl(config.DATABASE_URL)}`, 'DATABASE_URL', () =>
    openDatabase(config.DATABASE_URL, {
      // A first start (no marketplace rows) is seeded, unless SEED_ON_EMPTY=false.
      onReady: config.SEED_ON_EMPTY
        ? async (opened) => {
            const seeded = await seedFirstStart(opened, seedingLog(log));
            if (seeded) log.info('seeding done');
          }
        : undefined,
      migrate: config.MIGRATE_ON_START,
      poolSize: config.DATABASE_POOL_SIZE,
      queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS,
      changeNotify: config.DATABASE_CHANGE_NOTIFY,
      onPoolError: (error) => reportPoolError(error),
    }),
  );
  // Several instances share one budget through Redis; one instance counts in memory.
  const redisUrl = config.REDIS_URL;
  const rateLimitStore = redisUrl
    ? await failingAs(`Redis at ${maskUrlPasswords(redisUrl)}`, 'REDIS_URL', () =>
        RedisRateLimitStore.connect(redisUrl, config.REDIS_PREFIX),
      )
    : new MemoryRateLimitStore();
  const readiness = new Readiness();
  const app = await buildApp(config, { db, rateLimitStore, readiness, warmSearchIndex: true });
  reportPoolError = (error) => app.log.warn({ err: error }, 'database connection error');
  for (const error of poolErrors) reportPoolError(error);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      // A second signal while draining: the operator wants it gone now.
      app.log.warn({ signal }, 'second signal while draining: exiting at once');
      process.exit(1);
    }
    closing = true;
    // /readyz answers 503 from now on; the delay gives load balancers time to notice before the
    // listener closes. Then Fastify stops accepting, lets requests in flight finish, and closes.
    readiness.markDraining();
    app.log.info({ signal, delayMs: config.SHUTDOWN_DELAY_MS }, 'draining');
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'requests still running at the shutdown timeout');
      process.exit(1);
    }, config.SHUTDOWN_DELAY_MS + config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    try {
      await sleep(config.SHUTDOWN_DELAY_MS);
      await app.close();
      await rateLimitStore.close();
      await db.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await failingAs(`listening on ${config.HOST}:${config.PORT}`, 'PORT or HOST', () =>
    app.listen({ port: config.PORT, host: config.HOST }),
  );
  app.log.info(`ready: the API at ${publicBaseUrl(config)}/v1, its reference at ${publicBaseUrl(config)}/docs`);
}

/** A start that failed for a reason outside the code: said in one line, without a stack. */
class StartupError extends Error {}

/** Why a system call failed, in words an operator acts on. */
const SYSTEM_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the address is in use by another process',
  EADDRNOTAVAIL: 'the address is not one of this machine',
  EACCES: 'permission denied',
  ECONNREFUSED: 'connection refused: nothing listens there',
  ENOTFOUND: 'the host name does not resolve',
  ETIMEDOUT: 'no answer in time',
  ENOENT: 'no such file or folder',
};

/** Runs one start-up step; an operating-system or connection error becomes a StartupError naming the step and the setting. */
async function failingAs<T>(what: string, setting: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const known = typeof code === 'string' ? SYSTEM_ERRORS[code] : undefined;
    const reason = known && `${known} (${String(code)})`;
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    if (reason || /connect|timeout|refused|closed/i.test(message)) {
      throw new StartupError(`Failed to start: ${what}: ${reason ?? message.replace(/\.$/, '')}. Check ${setting}.`);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof SchemaBehindError || error instanceof StartupError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
