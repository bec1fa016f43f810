import { type Insertable, type Kysely, PostgresAdapter, SqliteAdapter, type Transaction } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import type { Database } from '../db/schema.js';

/** What every repository function takes first: the database or a transaction on it. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export function dialectOf(db: Queryable): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new Error('Unsupported database dialect');
}

export const flag = (value: 0 | 1): boolean => value === 1;

export function parsePhotos(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * An index's page as API objects, in the index's order, each with the distance the index computed.
 * A row deleted since the index was built is left out.
 */
export function pageOf<R, T>(
  page: { ids: readonly string[]; distances: readonly number[] },
  rows: ReadonlyMap<string, R>,
  toApi: (row: R, distanceKm: number) => T,
): T[] {
  const out: T[] = [];
  page.ids.forEach((id, i) => {
    const row = rows.get(id);
    if (row) out.push(toApi(row, page.distances[i] as number));
  });
  return out;
}

/** Awaits every promise of an object at once: `{a: Promise<A>, b: Promise<B>}` -> `{a: A, b: B}`. */
export async function allOf<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(
    Object.entries(promises).map(async ([key, promise]) => [key, await promise] as const),
  );
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> };
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

/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Network errors of a connection to the database server. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/** PostgreSQL: shutting down, starting up, too many connections; class 08 is every connection exception. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether an error means the database cannot serve right now (a retry later may work), rather
 * than a fault of the request or the code: the caller gets a 503, not a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_ERRORS.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')) return true;
    // SQLite: another process held the write lock beyond the busy timeout.
    if (code === 'SQLITE_BUSY') return true;
  }
  // node-postgres pool and client errors carry no code.
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout/.test(message)
  );
}
