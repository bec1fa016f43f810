import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 18 (saved searches that call back):
 * - saved_searches: an account's stored job or listing search. The query as validated is kept as
 *   JSON; category and the search area's bounding box are columns as well, so a new or changed
 *   job or listing is compared only with the searches whose resource, category and box it fits
 *   (the rest of the query is evaluated in code). The unsubscribe link's token is an HMAC of the id under a random key of the search (never shown).
 * - saved_search_matches: a job or listing that started to match a search after it was saved,
 *   once per search (the primary key).
 * - saved_search_digests: when an account's daily digest e-mail was last sent; the sweep claims an
 *   account with a conditional update of this row, so two instances never send the same digest.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('saved_searches')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('resource', text, (c) => c.notNull())
    .addColumn('query', text, (c) => c.notNull())
    .addColumn('category', text)
    .addColumn('center_lat', 'double precision', (c) => c.notNull())
    .addColumn('center_lng', 'double precision', (c) => c.notNull())
    .addColumn('radius_km', 'double precision', (c) => c.notNull())
    .addColumn('min_lat', 'double precision', (c) => c.notNull())
    .addColumn('max_lat', 'double precision', (c) => c.notNull())
    .addColumn('min_lng', 'double precision', (c) => c.notNull())
    .addColumn('max_lng', 'double precision', (c) => c.notNull())
    .addColumn('email_digest', 'integer', (c) => c.notNull())
    .addColumn('unsubscribe_key', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('saved_searches_account')
    .on('saved_searches')
    .columns(['account_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('saved_searches_candidates')
    .on('saved_searches')
    .columns(['resource', 'category', 'min_lat', 'max_lat'])
    .execute();

  await db.schema
    .createTable('saved_search_matches')
    .addColumn('saved_search_id', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    .addColumn('matched_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('saved_search_matches_pk', ['saved_search_id', 'subject_id'])
    .execute();
  await db.schema
    .createIndex('saved_search_matches_time')
    .on('saved_search_matches')
    .columns(['saved_search_id', 'matched_at'])
    .execute();

  await db.schema
    .createTable('saved_search_digests')
    .addColumn('account_id', text, (c) => c.primaryKey())
    .addColumn('sent_at', text, (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('saved_search_digests').execute();
  await db.schema.dropTable('saved_search_matches').execute();
  await db.schema.dropTable('saved_searches').execute();
}
