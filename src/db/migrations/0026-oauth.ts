import type { Kysely } from 'kysely';
import { notifyChanges } from './0019-change-notify.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 31 (apps and agents act for people, OAuth 2.1): what the authorization server
 * (oidc-provider) stores, through its adapter, on either engine: clients, grants, authorization
 * codes, access and refresh tokens, interactions and sessions, and the server's own signing keys,
 * each as the library's JSON payload under its model name and id. The columns beside the payload
 * are what must be found without reading it: the grant a token belongs to (revoking a grant ends
 * its tokens), the client (deleting a client ends what it was given), the account (listing a person's grants, a developer's clients; erasure), an
 * interaction's uid, and when it expires.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('oauth_records')
    .addColumn('model', text, (c) => c.notNull())
    .addColumn('id', text, (c) => c.notNull())
    .addColumn('payload', text, (c) => c.notNull())
    .addColumn('grant_id', text)
    .addColumn('account_id', text)
    .addColumn('client_id', text)
    .addColumn('uid', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('expires_at', text)
    .addColumn('consumed_at', text)
    .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
  await db.schema.createIndex('oauth_records_account').on('oauth_records').columns(['account_id', 'model']).execute();
  await db.schema.createIndex('oauth_records_client').on('oauth_records').columns(['client_id', 'model']).execute();
  await db.schema.createIndex('oauth_records_uid').on('oauth_records').column('uid').execute();
  await db.schema.createIndex('oauth_records_expiry').on('oauth_records').column('expires_at').execute();
  if (isPostgres(db)) await notifyChanges(db, 'oauth_records');
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_records').execute();
}
