import { type Insertable, type Kysely, PostgresAdapter, SqliteAdapter, type Transaction } from 'kysely';
import type { DialectName } from './create-db.js';
import type { Database } from './schema.js';

/** What every repository function takes first: the database or a transaction on it. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export function dialectOf(db: Queryable): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new Error('Unsupported database dialect');
}

/**
 * Inserts rows in chunks: 500 rows of up to 30 columns stay below SQLite's 32,766 and
 * PostgreSQL's 65,535 bound parameters per statement.
 */
export async function insertInChunks<T extends keyof Database & string>(
  db: Queryable,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    // biome-ignore lint/suspicious/noExplicitAny: Kysely cannot relate a generic table name to its row type.
    const chunk = rows.slice(i, i + 500) as any;
    await db.insertInto(table).values(chunk).execute();
  }
}
