import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 31 (people sign up and sign in): the one-time codes sent by e-mail, and the sessions of
 * the people who entered one. Neither table keeps a secret: a code is kept as an HMAC keyed by
 * the browser's challenge token (which only the browser holds), the challenge and the session
 * token as their SHA-256. A code row lives ten minutes, a session until it expires or is revoked.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('sign_in_codes')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('challenge_hash', text, (c) => c.notNull().unique())
    .addColumn('code_hash', text, (c) => c.notNull())
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('email', text, (c) => c.notNull())
    .addColumn('name', text)
    .addColumn('account_type', text)
    .addColumn('account_id', text)
    .addColumn('tries', 'integer', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_codes_account').on('sign_in_codes').column('account_id').execute();
  await db.schema.createIndex('sign_in_codes_expiry').on('sign_in_codes').column('expires_at').execute();
  await db.schema
    .createTable('sessions')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('user_agent', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_seen_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').columns(['account_id', 'created_at']).execute();
  if (isPostgres(db)) {
    await notifyChanges(db, 'sign_in_codes');
    await notifyChanges(db, 'sessions');
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.dropTable('sign_in_codes').execute();
}
