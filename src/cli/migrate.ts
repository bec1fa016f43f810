// `npm run migrate`: applies pending schema migrations to DATABASE_URL (SQLite or PostgreSQL) and
// says which. Servers do the same at start-up unless MIGRATE_ON_START=false.
import { loadConfig } from '../config.js';
import { createDb, redactDatabaseUrl } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb(config.DATABASE_URL);
  try {
    const applied = await migrateToLatest(db);
    const where = redactDatabaseUrl(config.DATABASE_URL);
    process.stdout.write(
      applied.length > 0
        ? `Applied ${applied.length} migration(s) to ${where}: ${applied.join(', ')}\n`
        : `${where} is up to date; nothing to apply.\n`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
