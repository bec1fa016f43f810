import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { ConversationAbout, ConversationRow, MessageRow } from '../db/schema.js';
import { MESSAGES_LOOKED_BACK, maskConversation } from '../domain/contact-shield.js';
import type { SubjectParties } from '../domain/conversation-parties.js';
import { MODERATED_TEXT } from '../domain/erasure.js';
import { newId } from '../domain/ids.js';
import { effectiveJobStatus } from '../domain/statuses.js';
import { firstNameAndInitial } from '../domain/text.js';
import type { Conversation, Message } from '../schemas/conversations.js';
import type { WriteTransaction } from './write-transaction.js';

/** Where a subject is, for the event's category and place filters (webhooks). */
export interface SubjectPlace {
  category: string;
  lat: number;
  lng: number;
}

/** What a conversation's subject is, as far as conversations need it: its parties and its place. */
export interface SubjectFacts extends SubjectParties {
  place: SubjectPlace;
}

/** The facts of a subject in one query, undefined when it does not exist. */
export async function subjectFacts(
  db: Queryable,
  about: { type: ConversationAbout; id: string },
  now: Date,
): Promise<SubjectFacts | undefined> {
  const place = (row: SubjectPlace): SubjectPlace => ({ category: row.category, lat: row.lat, lng: row.lng });
  switch (about.type) {
    case 'job': {
      const job = await db
        .selectFrom('jobs')
        .select(['owner_account_id', 'status', 'deadline', 'category', 'lat', 'lng'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      return (
        job && {
          owner: job.owner_account_id,
          party: null,
          open: effectiveJobStatus(job.status, job.deadline, now) === 'open',
          place: place(job),
        }
      );
    }
    case 'listing': {
      const listing = await db
        .selectFrom('listings')
        .innerJoin('owners', 'owners.id', 'listings.owner_id')
        .select(['owners.account_id', 'listings.status', 'listings.category', 'listings.lat', 'listings.lng'])
        .where('listings.id', '=', about.id)
        .executeTakeFirst();
      return (
        listing && {
          owner: listing.account_id,
          party: null,
          open: listing.status === 'available',
          place: place(listing),
        }
      );
    }
    case 'application': {
      const row = await db
        .selectFrom('applications')
        .innerJoin('jobs', 'jobs.id', 'applications.job_id')
        .select([
          'applications.account_id as party',
          'jobs.owner_account_id as owner',
          'jobs.category',
          'jobs.lat',
          'jobs.lng',
        ])
        .where('applications.id', '=', about.id)
        .executeTakeFirst();
      return row && { owner: row.owner, party: row.party, open: false, place: place(row) };
    }
    case 'booking': {
      const row = await db
        .selectFrom('bookings')
        .innerJoin('listings', 'listings.id', 'bookings.listing_id')
        .innerJoin('owners', 'owners.id', 'listings.owner_id')
        .select([
          'bookings.renter_account_id as party',
          'owners.account_id as owner',
          'listings.category',
          'listings.lat',
          'listings.lng',
        ])
        .where('bookings.id', '=', about.id)
        .executeTakeFirst();
      return row && { owner: row.owner, party: row.party, open: false, place: place(row) };
    }
  }
}

/** Whether the account applied to the job or booked the listing (so it may still write about it once closed). */
export async function hasTaken(
  db: Queryable,
  about: { type: 'job' | 'listing'; id: string },
  accountId: string,
): Promise<boolean> {
  const row =
    about.type === 'job'
      ? await db
          .selectFrom('applications')
          .select('id')
          .where('job_id', '=', about.id)
          .where('account_id', '=', accountId)
          .executeTakeFirst()
      : await db
          .selectFrom('bookings')
          .select('id')
          .where('listing_id', '=', about.id)
          .where('renter_account_id', '=', accountId)
          .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the shield is on for a conversation (read in the same query as the conversation): until
 * the deal is made, an accepted application, or a booking on its first day (Europe/Berlin `today`)
 * or later: confirmed and started, active or returned. Not from the confirmation itself (issue 30,
 * 4): an instant booking is confirmed at once and cancelled free of charge, so book, read, cancel
 * would lift the shield, as it would give the place away (repositories/places.ts).
 */
const shieldOnSql = (today: string) => sql<number | boolean>`case c.about_type
  when 'application' then not exists (select 1 from applications a where a.id = c.about_id and a.status = 'accepted')
  when 'booking' then not exists (select 1 from bookings b where b.id = c.about_id
    and (b.status in ('active', 'returned') or (b.status = 'confirmed' and b.start_date <= ${today})))
  when 'job' then not exists (select 1 from applications a where a.job_id = c.about_id and a.status = 'accepted'
    and (a.account_id = c.account_low or a.account_id = c.account_high))
  else not exists (select 1 from bookings b where b.listing_id = c.about_id
    and (b.status in ('active', 'returned') or (b.status = 'confirmed' and b.start_date <= ${today}))
    and (b.renter_account_id = c.account_low or b.renter_account_id = c.account_high))
  end`;

interface ConversationView extends ConversationRow {
  shield_on: number | boolean;
  other_name: string;
  unread: number | string;
}

/**
 * A message as `viewer` reads it: the sender what they wrote, the recipient masked while the shield
 * is on. `around` holds the messages of the conversation near it (MESSAGES_LOOKED_BACK before and
 * after, in seq order, itself among them), so that contact data split over several messages of
 * its sender is masked too (domain/contact-shield.ts maskConversation); without it, alone.
 */
export function messageFor(
  row: MessageRow,
  viewer: string,
  shieldOn: boolean,
  around: readonly MessageRow[] = [row],
): Message {
  return messagesFor([row], viewer, shieldOn, around)[0] as Message;
}

/** Messages as `viewer` reads them (see messageFor), each read with the messages `around` them. */
export function messagesFor(
  rows: readonly MessageRow[],
  viewer: string,
  shieldOn: boolean,
  around: readonly MessageRow[],
): Message[] {
  const context = [...new Map([...around, ...rows].map((row) => [row.id, row])).values()].sort((a, b) => a.seq - b.seq);
  // Removed by moderation: no text of its own, and none to add to its neighbours'.
  const read = shieldOn
    ? maskConversation(
        context.map((row) => ({ sender: row.sender_account_id, text: row.removed_at === null ? row.text : '' })),
      )
    : [];
  const masked = new Map(context.map((row, i) => [row.id, read[i]]));
  return rows.map((row) => shownMessage(row, viewer, shieldOn ? masked.get(row.id) : undefined));
}

function shownMessage(
  row: MessageRow,
  viewer: string,
  maskedText: { text: string; masked: boolean } | undefined,
): Message {
  const mine = row.sender_account_id === viewer;
  // Removed by a moderation decision: its text is gone for both (the sender has the statement of reasons).
  const shown =
    row.removed_at !== null
      ? { text: MODERATED_TEXT, masked: false }
      : !mine && maskedText
        ? maskedText
        : { text: row.text, masked: false };
  return {
    id: row.id,
    conversation_id: row.conversation_id,
    from: mine ? 'me' : 'them',
    text: shown.text,
    contact_data_hidden: shown.masked,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}

function conversationQuery(db: Queryable, viewer: string, today: string) {
  return db
    .selectFrom('conversations as c')
    .selectAll('c')
    .select(shieldOnSql(today).as('shield_on'))
    .select(
      sql<string>`(select acc.name from accounts acc where acc.id = case when c.account_low = ${viewer} then c.account_high else c.account_low end)`.as(
        'other_name',
      ),
    )
    .select(
      sql<number>`(select count(*) from messages m where m.conversation_id = c.id and m.recipient_account_id = ${viewer} and m.read_at is null)`.as(
        'unread',
      ),
    )
    .where((eb) => eb.or([eb('c.account_low', '=', viewer), eb('c.account_high', '=', viewer)]));
}

/**
 * The last messages of each conversation, oldest first: its last one and the MESSAGES_LOOKED_BACK
 * before it, which the shield reads it with.
 */
async function lastMessages(db: Queryable, ids: readonly string[]): Promise<Map<string, MessageRow[]>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages as m')
    .selectAll('m')
    .where('m.conversation_id', 'in', ids)
    .where(({ eb, selectFrom }) =>
      eb(
        'm.seq',
        '>',
        selectFrom('messages as n')
          .select(sql<number>`max(n.seq) - ${sql.lit(MESSAGES_LOOKED_BACK)}`.as('seq'))
          .whereRef('n.conversation_id', '=', 'm.conversation_id'),
      ),
    )
    .orderBy('m.seq')
    .execute();
  const byConversation = new Map<string, MessageRow[]>();
  for (const row of rows)
    byConversation.set(row.conversation_id, [...(byConversation.get(row.conversation_id) ?? []), row]);
  return byConversation;
}

function toConversation(view: ConversationView, recent: readonly MessageRow[], viewer: string): Conversation {
  const last = recent.at(-1) as MessageRow;
  const shieldOn = Boolean(Number(view.shield_on));
  return {
    id: view.id,
    about: { type: view.about_type, id: view.about_id },
    with: { name: firstNameAndInitial(view.other_name ?? '') },
    started_by: view.started_by === viewer ? 'me' : 'them',
    contact_shield: shieldOn,
    unread_count: Number(view.unread),
    last_message: messageFor(last, viewer, shieldOn, recent),
    created_at: view.created_at,
    last_message_at: view.last_message_at,
  };
}

/** One conversation of `viewer`; undefined when it does not exist or is someone else's (the same answer). */
export async function findConversation(
  db: Queryable,
  id: string,
  viewer: string,
  /** The Europe/Berlin day: a booking's deal is made on its first day (shieldOnSql). */
  today: string,
): Promise<{ conversation: Conversation; shieldOn: boolean } | undefined> {
  const view = (await conversationQuery(db, viewer, today).where('c.id', '=', id).executeTakeFirst()) as
    | ConversationView
    | undefined;
  if (!view) return undefined;
  const recent = (await lastMessages(db, [view.id])).get(view.id);
  if (!recent || recent.length === 0) return undefined;
  return { conversation: toConversation(view, recent, viewer), shieldOn: Boolean(Number(view.shield_on)) };
}

/** The conversations of `viewer`, latest activity first. */
export async function listConversations(
  db: Queryable,
  viewer: string,
  page: { limit: number; offset: number },
  today: string,
): Promise<{ data: Conversation[]; total: number }> {
  const views = (await conversationQuery(db, viewer, today)
    .orderBy('c.last_message_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()) as ConversationView[];
  const counted = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('account_low', '=', viewer), eb('account_high', '=', viewer)]))
    .executeTakeFirstOrThrow();
  const last = await lastMessages(
    db,
    views.map((v) => v.id),
  );
  const data: Conversation[] = [];
  for (const view of views) {
    const recent = last.get(view.id);
    if (recent && recent.length > 0) data.push(toConversation(view, recent, viewer));
  }
  return { data, total: Number(counted.n) };
}

/** A page of a conversation's messages, oldest first, after the message `after` (undefined: from the start). */
export async function listMessages(
  db: Queryable,
  conversationId: string,
  viewer: string,
  shieldOn: boolean,
  page: { after: MessageRow | undefined; limit: number },
): Promise<{ data: Message[]; has_more: boolean }> {
  // The page, and the messages the shield reads its messages with: before it and after it.
  const from = page.after?.seq ?? 0;
  const around = await db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', from - MESSAGES_LOOKED_BACK)
    .orderBy('seq')
    .limit(MESSAGES_LOOKED_BACK + page.limit + MESSAGES_LOOKED_BACK)
    .execute();
  const rows = around.filter((row) => row.seq > from);
  return {
    data: messagesFor(rows.slice(0, page.limit), viewer, shieldOn, around),
    has_more: rows.length > page.limit,
  };
}

/** A message of a conversation by id (for `after`), or undefined. */
export function findMessage(db: Queryable, conversationId: string, messageId: string): Promise<MessageRow | undefined> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('id', '=', messageId)
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
}

/** The conversation of two accounts about a subject, if they have one. */
export function findConversationAbout(
  db: Queryable,
  about: { type: ConversationAbout; id: string },
  a: string,
  b: string,
): Promise<ConversationRow | undefined> {
  const [low, high] = a < b ? [a, b] : [b, a];
  return db
    .selectFrom('conversations')
    .selectAll()
    .where('about_type', '=', about.type)
    .where('about_id', '=', about.id)
    .where('account_low', '=', low)
    .where('account_high', '=', high)
    .executeTakeFirst();
}

/** Inserts the conversation of `from` and `to` about a subject, started by `from`. */
export async function insertConversation(
  trx: WriteTransaction,
  input: { about: { type: ConversationAbout; id: string }; from: string; to: string },
  now: Date,
): Promise<ConversationRow> {
  const [low, high] = input.from < input.to ? [input.from, input.to] : [input.to, input.from];
  const at = now.toISOString();
  const row: ConversationRow = {
    id: newId('cnv'),
    about_type: input.about.type,
    about_id: input.about.id,
    account_low: low,
    account_high: high,
    started_by: input.from,
    created_at: at,
    last_message_at: at,
  };
  await trx.insertInto('conversations').values(row).execute();
  return row;
}

/**
 * Stamps a conversation's last_message_at. The first statement of a message: it locks the
 * conversation's row (PostgreSQL), so messages written at once draw their numbers in turn.
 */
export async function touchConversation(trx: WriteTransaction, id: string, now: Date): Promise<void> {
  await trx.updateTable('conversations').set({ last_message_at: now.toISOString() }).where('id', '=', id).execute();
}

/** The number the next message of a conversation takes. */
export async function nextMessageSeq(db: Queryable, conversationId: string): Promise<number> {
  const previous = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return Number(previous?.seq ?? 0) + 1;
}

/** Inserts a message; returns its row. */
export async function insertMessage(
  trx: WriteTransaction,
  message: { conversationId: string; seq: number; from: string; to: string; text: string },
  now: Date,
): Promise<MessageRow> {
  const row: MessageRow = {
    removed_at: null,
    id: newId('msg'),
    conversation_id: message.conversationId,
    seq: message.seq,
    sender_account_id: message.from,
    recipient_account_id: message.to,
    text: message.text,
    created_at: now.toISOString(),
    read_at: null,
  };
  await trx.insertInto('messages').values(row).execute();
  return row;
}

/** Whether `from` wrote to the conversation before the message `exceptId`. */
export async function hasWrittenBefore(
  db: Queryable,
  conversationId: string,
  from: string,
  exceptId: string,
): Promise<boolean> {
  const earlier = await db
    .selectFrom('messages')
    .select('id')
    .where('conversation_id', '=', conversationId)
    .where('sender_account_id', '=', from)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return earlier !== undefined;
}

/** The messages a new message is read with: the MESSAGES_LOOKED_BACK before it, oldest first. */
export function messagesBefore(db: Queryable, conversationId: string, seq: number): Promise<MessageRow[]> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('seq', '<', seq)
    .where('seq', '>=', seq - MESSAGES_LOOKED_BACK)
    .orderBy('seq')
    .execute();
}

/** Whether the contact-data shield is on for a conversation now. */
export async function isShieldOn(db: Queryable, conversationId: string, today: string): Promise<boolean> {
  const shield = await db
    .selectFrom('conversations as c')
    .select(shieldOnSql(today).as('shield_on'))
    .where('c.id', '=', conversationId)
    .executeTakeFirstOrThrow();
  return Boolean(Number(shield.shield_on));
}

/** The conversation row of `viewer` (for writes), undefined for anyone else's. */
export function conversationOf(db: Queryable, id: string, viewer: string): Promise<ConversationRow | undefined> {
  return db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('account_low', '=', viewer), eb('account_high', '=', viewer)]))
    .executeTakeFirst();
}

/** Marks every message to `viewer` in the conversation read; the number marked. */
export async function markRead(
  trx: WriteTransaction,
  conversationId: string,
  viewer: string,
  now: Date,
): Promise<number> {
  const result = await trx
    .updateTable('messages')
    .set({ read_at: now.toISOString() })
    .where('conversation_id', '=', conversationId)
    .where('recipient_account_id', '=', viewer)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
