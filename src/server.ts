import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase, SchemaBehindError } from './db/prepare.js';
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
  const db = await openDatabase(config.DATABASE_URL, {
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
  });
  // Several instances share one budget through Redis; one instance counts in memory.
  const rateLimitStore = config.REDIS_URL
    ? await RedisRateLimitStore.connect(config.REDIS_URL, config.REDIS_PREFIX)
    : new MemoryRateLimitStore();
  const readiness = new Readiness();
  const app = await buildApp(config, { db, rateLimitStore, readiness, buildSearchIndex: true });
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

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof SchemaBehindError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
