import type { Kysely } from 'kysely';
import { textType } from './column-types.js';

/**
 * The account's own language (issue 36): notification_settings gains `language_chosen_at`, when
 * the person chose the language themselves (PUT /v1/me/notification-settings or the form on
 * /account with a language). Only a chosen language is the default of the account's API answers
 * sent without Accept-Language; the row the notifications make with the defaults (German e-mails)
 * leaves it null, so an integrator's English error texts do not turn German by themselves.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_settings').addColumn('language_chosen_at', textType(db)).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('notification_settings').dropColumn('language_chosen_at').execute();
}
