import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * Issue 17: conversations between two accounts about one job, listing, application or booking, and
 * their messages. The pair is stored in id order (account_low < account_high), so "the same two
 * accounts about the same thing" is one row whoever writes first; `started_by` is who opened it.
 * A message has one recipient (the other party), whose reading sets `read_at`, and a number in its
 * conversation (`seq`): messages written in the same millisecond still have one order.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('conversations')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('about_type', text, (c) => c.notNull())
    .addColumn('about_id', text, (c) => c.notNull())
    .addColumn('account_low', text, (c) => c.notNull())
    .addColumn('account_high', text, (c) => c.notNull())
    .addColumn('started_by', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_message_at', text, (c) => c.notNull())
    .addUniqueConstraint('conversations_about_pair', ['about_type', 'about_id', 'account_low', 'account_high'])
    .execute();
  await db.schema
    .createIndex('conversations_low')
    .on('conversations')
    .columns(['account_low', 'last_message_at'])
    .execute();
  await db.schema
    .createIndex('conversations_high')
    .on('conversations')
    .columns(['account_high', 'last_message_at'])
    .execute();
  await db.schema
    .createTable('messages')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('conversation_id', text, (c) => c.notNull().references('conversations.id'))
    // The message's place in its conversation (1, 2, ...): the order of reading and of paging.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('sender_account_id', text, (c) => c.notNull())
    .addColumn('recipient_account_id', text, (c) => c.notNull())
    .addColumn('text', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('read_at', text)
    .execute();
  await db.schema
    .createIndex('messages_conversation_seq')
    .on('messages')
    .columns(['conversation_id', 'seq'])
    .unique()
    .execute();
  // The hourly limit counts an account's messages (account-quotas.ts); unread counts per recipient.
  await db.schema.createIndex('messages_sender').on('messages').columns(['sender_account_id', 'created_at']).execute();
  await db.schema
    .createIndex('messages_unread')
    .on('messages')
    .columns(['recipient_account_id', 'conversation_id', 'read_at'])
    .execute();
  await db.schema
    .createIndex('conversations_started')
    .on('conversations')
    .columns(['started_by', 'created_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('conversations').execute();
}
