import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * DSA reports keep the reported content as it was at report time (Art. 16 and 17: the evidence a
 * decision rests on), so the operators' console shows it after its author edited or removed it:
 *
 * - reports gain `snapshot`: what the item's public view showed (a message: its text and sender),
 *   as JSON (domain/report-snapshot.ts, ReportSnapshot), written in the report's transaction; null
 *   for the reports filed before, and after the item's account is erased.
 * - reports gain `about_account_id`: the account the item belongs to (null: seeded content), the
 *   one whose erasure drops the snapshot; filled here for the reports filed before (an item's
 *   account never changes), indexed for the erasure's update.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema.alterTable('reports').addColumn('snapshot', text).execute();
  await db.schema.alterTable('reports').addColumn('about_account_id', text).execute();
  const owners = {
    job: db.selectFrom('jobs').select('jobs.owner_account_id').whereRef('jobs.id', '=', 'reports.about_id'),
    listing: db
      .selectFrom('listings')
      .innerJoin('owners', 'owners.id', 'listings.owner_id')
      .select('owners.account_id')
      .whereRef('listings.id', '=', 'reports.about_id'),
    helper: db.selectFrom('helpers').select('helpers.account_id').whereRef('helpers.id', '=', 'reports.about_id'),
    review: db
      .selectFrom('reviews')
      .select('reviews.author_account_id')
      .whereRef('reviews.id', '=', 'reports.about_id'),
    message: db
      .selectFrom('messages')
      .select('messages.sender_account_id')
      .whereRef('messages.id', '=', 'reports.about_id'),
  };
  for (const [type, owner] of Object.entries(owners)) {
    await db.updateTable('reports').set({ about_account_id: owner }).where('about_type', '=', type).execute();
  }
  await db.schema.createIndex('reports_about_account').on('reports').column('about_account_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('reports_about_account').execute();
  await db.schema.alterTable('reports').dropColumn('about_account_id').execute();
  await db.schema.alterTable('reports').dropColumn('snapshot').execute();
}
