import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema.js';

export type DialectName = 'sqlite';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

/** Opens the database a DATABASE_URL names (today `sqlite:<path>` or `sqlite::memory:`). */
export function createDb(url: string): Db {
  if (!url.startsWith('sqlite:')) throw new Error(`Unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
  const path = url.slice('sqlite:'.length);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // WAL lets readers run while a writer commits; NORMAL sync is durable across process crashes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}
