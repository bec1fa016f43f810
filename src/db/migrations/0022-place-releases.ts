import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 30 (places only for a committed party): every time the exact place of a job or listing is
 * shown to someone other than its owner (GET /v1/{jobs,listings}/{id}/location), one row per
 * object, reader and Europe/Berlin day records it, with the first and last read and their count:
 * the owner sees who read their place (GET /v1/me/place-releases), and a reader's places per day
 * are limited (PLACE_RELEASES_PER_ACCOUNT_PER_DAY, services/places.ts).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('place_releases')
    .addColumn('resource', text, (c) => c.notNull())
    .addColumn('object_id', text, (c) => c.notNull())
    .addColumn('owner_account_id', text, (c) => c.notNull())
    .addColumn('reader_account_id', text, (c) => c.notNull())
    .addColumn('day', text, (c) => c.notNull())
    .addColumn('first_at', text, (c) => c.notNull())
    .addColumn('last_at', text, (c) => c.notNull())
    .addColumn('reads', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('place_releases_pk', ['object_id', 'reader_account_id', 'day'])
    .execute();
  await db.schema
    .createIndex('place_releases_owner')
    .on('place_releases')
    .columns(['owner_account_id', 'last_at'])
    .execute();
  await db.schema
    .createIndex('place_releases_reader')
    .on('place_releases')
    .columns(['reader_account_id', 'day'])
    .execute();
  if (isPostgres(db)) await notifyChanges(db, 'place_releases');
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('place_releases').execute();
}
