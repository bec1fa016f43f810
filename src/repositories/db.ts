import { type Kysely, SqliteAdapter, type Transaction } from 'kysely';
import type { DialectName } from '../db/create-db.js';
import type { Database } from '../db/schema.js';

/** What every repository function takes first: the database or a transaction on it. */
export type Queryable = Kysely<Database> | Transaction<Database>;

export function dialectOf(db: Queryable): DialectName {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return 'sqlite';
  throw new Error('Unsupported database dialect');
}

export const flag = (value: 0 | 1): boolean => value === 1;

export function parsePhotos(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
