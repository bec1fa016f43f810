import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 31 (people sign in with passkeys): the WebAuthn credentials of an account, and the
 * challenges handed to browsers for a ceremony in flight. A credential keeps its public key (no
 * secret: the private key never leaves the authenticator); a challenge is kept only as its SHA-256
 * and lives five minutes, used once.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('passkeys')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('credential_id', text, (c) => c.notNull().unique())
    .addColumn('account_id', text, (c) => c.notNull())
    .addColumn('public_key', text, (c) => c.notNull())
    .addColumn('counter', 'integer', (c) => c.notNull())
    .addColumn('transports', text)
    .addColumn('device_type', text, (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('name', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_used_at', text)
    .execute();
  await db.schema.createIndex('passkeys_account').on('passkeys').columns(['account_id', 'created_at']).execute();
  await db.schema
    .createTable('passkey_challenges')
    .addColumn('challenge_hash', text, (c) => c.primaryKey())
    .addColumn('purpose', text, (c) => c.notNull())
    .addColumn('account_id', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_challenges_expiry').on('passkey_challenges').column('expires_at').execute();
  await db.schema.createIndex('passkey_challenges_account').on('passkey_challenges').column('account_id').execute();
  if (isPostgres(db)) {
    await notifyChanges(db, 'passkeys');
    await notifyChanges(db, 'passkey_challenges');
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('passkey_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
