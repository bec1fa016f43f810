import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/prepare.js';
import { RedisRateLimitStore } from './rate-limit/redis-store.js';
import { MemoryRateLimitStore } from './rate-limit/store.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = await openDatabase(config.DATABASE_URL, { seedIfEmpty: config.SEED_ON_EMPTY });
  // Several instances share one budget through Redis; one instance counts in memory.
  const rateLimitStore = config.REDIS_URL
    ? await RedisRateLimitStore.connect(config.REDIS_URL, config.REDIS_PREFIX)
    : new MemoryRateLimitStore();
  const app = await buildApp(config, { db, rateLimitStore });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    await rateLimitStore.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
