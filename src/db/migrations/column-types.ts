import { type Expression, type Kysely, PostgresAdapter, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The text column type. PostgreSQL compares text by the database's locale unless told otherwise;
 * "C" compares bytes, as SQLite does, so ids sort (tie-breaks, cursors, neighbours) and ISO
 * timestamps compare the same on both engines, and b-tree lookups skip locale rules.
 */
// biome-ignore lint/suspicious/noExplicitAny: see isPostgres.
export const textType = (db: Kysely<any>): 'text' | Expression<unknown> =>
  isPostgres(db) ? sql`text collate "C"` : 'text';
