import { sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { ConversationAbout, ConversationRow, MessageRow } from '../db/schema.js';
import { maskContactData } from '../domain/contact-shield.js';
import { MODERATED_TEXT } from '../domain/erasure.js';
import { newId } from '../domain/ids.js';
import { effectiveJobStatus } from '../domain/statuses.js';
import { firstNameAndInitial } from '../domain/text.js';
import type { Conversation, Message } from '../schemas/conversations.js';
import { claimQuota } from './account-quotas.js';
import { recordEvent } from './outbox.js';
import { refreshAccountRecords } from './reliability-records.js';
import type { WriteTransaction } from './write-transaction.js';

/** Where a subject is, for the event's category and place filters (webhooks). */
interface SubjectPlace {
  category: string;
  lat: number;
  lng: number;
}

/** The other party of a subject for the caller, or why there is none. */
export type Counterpart =
  | { ok: true; other: string; place: SubjectPlace }
  | { ok: false; problem: 'not_found' | 'self' | 'no_counterpart' };

/** What a conversation's subject is, as far as conversations need it. */
interface SubjectFacts {
  /** The owner of the job or listing (of the application's job, of the booking's listing); null when seeded. */
  owner: string | null;
  /** The applicant of an application, the renter of a booking; null for a job or listing. */
  party: string | null;
  /** A job or listing anyone may write about: the job open, the listing available. */
  open: boolean;
  place: SubjectPlace;
}

/** The facts of a subject in one query, undefined when it does not exist. */
async function subjectFacts(
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
async function hasTaken(db: Queryable, about: { type: 'job' | 'listing'; id: string }, accountId: string) {
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
 * The other party of `about` for `accountId`: the owner of a job or listing the caller can see
 * (an open job or available listing, or one the caller applied to or booked), the other side of an
 * application or booking the caller is a party of. Everything else is not_found, the same answer
 * as an id that does not exist.
 */
export async function counterpartOf(
  db: Queryable,
  about: { type: ConversationAbout; id: string },
  accountId: string,
  now: Date,
): Promise<Counterpart> {
  const notFound = { ok: false, problem: 'not_found' } as const;
  const subject = await subjectFacts(db, about, now);
  if (!subject) return notFound;
  const { owner, party, place } = subject;
  if (about.type === 'job' || about.type === 'listing') {
    const visible =
      subject.open || owner === accountId || (await hasTaken(db, { type: about.type, id: about.id }, accountId));
    if (!visible) return notFound;
    if (owner === accountId) return { ok: false, problem: 'self' };
    return owner === null ? { ok: false, problem: 'no_counterpart' } : { ok: true, other: owner, place };
  }
  if (party !== accountId && owner !== accountId) return notFound;
  if (party === owner) return { ok: false, problem: 'self' };
  const other = party === accountId ? owner : party;
  return other === null ? { ok: false, problem: 'no_counterpart' } : { ok: true, other, place };
}

/**
 * Whether the shield is on for a conversation (read in the same query as the conversation): until
 * the deal is made, an accepted application or a confirmed (then active, returned) booking.
 */
const shieldOnSql = sql<number | boolean>`case c.about_type
  when 'application' then not exists (select 1 from applications a where a.id = c.about_id and a.status = 'accepted')
  when 'booking' then not exists (select 1 from bookings b where b.id = c.about_id and b.status in ('confirmed', 'active', 'returned'))
  when 'job' then not exists (select 1 from applications a where a.job_id = c.about_id and a.status = 'accepted'
    and (a.account_id = c.account_low or a.account_id = c.account_high))
  else not exists (select 1 from bookings b where b.listing_id = c.about_id and b.status in ('confirmed', 'active', 'returned')
    and (b.renter_account_id = c.account_low or b.renter_account_id = c.account_high))
  end`;

interface ConversationView extends ConversationRow {
  shield_on: number | boolean;
  other_name: string;
  unread: number | string;
}

/** A message as `viewer` reads it: the sender what they wrote, the recipient masked while the shield is on. */
export function messageFor(row: MessageRow, viewer: string, shieldOn: boolean): Message {
  const mine = row.sender_account_id === viewer;
  // Removed by a moderation decision: its text is gone for both (the sender has the statement of reasons).
  const shown =
    row.removed_at !== null
      ? { text: MODERATED_TEXT, masked: false }
      : !mine && shieldOn
        ? maskContactData(row.text)
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

function conversationQuery(db: Queryable, viewer: string) {
  return db
    .selectFrom('conversations as c')
    .selectAll('c')
    .select(shieldOnSql.as('shield_on'))
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

async function lastMessages(db: Queryable, ids: readonly string[]): Promise<Map<string, MessageRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('messages as m')
    .selectAll('m')
    .where('m.conversation_id', 'in', ids)
    .where(({ eb, selectFrom }) =>
      eb(
        'm.seq',
        '=',
        selectFrom('messages as n')
          .select((n) => n.fn.max('n.seq').as('seq'))
          .whereRef('n.conversation_id', '=', 'm.conversation_id'),
      ),
    )
    .execute();
  return new Map(rows.map((row) => [row.conversation_id, row]));
}

function toConversation(view: ConversationView, last: MessageRow, viewer: string): Conversation {
  const shieldOn = Boolean(Number(view.shield_on));
  return {
    id: view.id,
    about: { type: view.about_type, id: view.about_id },
    with: { name: firstNameAndInitial(view.other_name ?? '') },
    started_by: view.started_by === viewer ? 'me' : 'them',
    contact_shield: shieldOn,
    unread_count: Number(view.unread),
    last_message: messageFor(last, viewer, shieldOn),
    created_at: view.created_at,
    last_message_at: view.last_message_at,
  };
}

/** One conversation of `viewer`; undefined when it does not exist or is someone else's (the same answer). */
export async function findConversation(
  db: Queryable,
  id: string,
  viewer: string,
): Promise<{ conversation: Conversation; shieldOn: boolean } | undefined> {
  const view = (await conversationQuery(db, viewer).where('c.id', '=', id).executeTakeFirst()) as
    | ConversationView
    | undefined;
  if (!view) return undefined;
  const last = (await lastMessages(db, [view.id])).get(view.id);
  if (!last) return undefined;
  return { conversation: toConversation(view, last, viewer), shieldOn: Boolean(Number(view.shield_on)) };
}

/** The conversations of `viewer`, latest activity first. */
export async function listConversations(
  db: Queryable,
  viewer: string,
  page: { limit: number; offset: number },
): Promise<{ data: Conversation[]; total: number }> {
  const views = (await conversationQuery(db, viewer)
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
    const message = last.get(view.id);
    if (message) data.push(toConversation(view, message, viewer));
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
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('seq', '>', page.after?.seq ?? 0)
    .orderBy('seq')
    .limit(page.limit + 1)
    .execute();
  return {
    data: rows.slice(0, page.limit).map((row) => messageFor(row, viewer, shieldOn)),
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

export interface Quotas {
  messages: number;
  conversations: number;
}

/**
 * Opens the conversation of the caller and `other` about a subject (or finds it) and adds the
 * first message, in the write transaction: the hourly limits are claimed there (a new conversation
 * counts against both), and a concurrent opening of the same conversation is a unique violation
 * the caller retries as an addition.
 */
export async function openConversation(
  trx: WriteTransaction,
  input: {
    about: { type: ConversationAbout; id: string };
    from: string;
    to: string;
    text: string;
    place: SubjectPlace;
  },
  now: Date,
  quotas: Quotas,
): Promise<{ conversationId: string; created: boolean; message: MessageRow }> {
  const existing = await findConversationAbout(trx, input.about, input.from, input.to);
  if (existing) {
    const message = await addMessage(trx, existing, input.from, input.text, input.place, now, quotas.messages);
    return { conversationId: existing.id, created: false, message };
  }
  await claimQuota(trx, 'conversations', input.from, quotas.conversations, now);
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
  const message = await addMessage(trx, row, input.from, input.text, input.place, now, quotas.messages);
  return { conversationId: row.id, created: true, message };
}

/**
 * Adds a message from `from` to the conversation and records message.created for the recipient
 * (a private event: their webhooks and private stream), with the message as the recipient reads it.
 */
export async function addMessage(
  trx: WriteTransaction,
  conversation: ConversationRow,
  from: string,
  text: string,
  place: SubjectPlace | null,
  now: Date,
  quota: number,
): Promise<MessageRow> {
  const at = now.toISOString();
  // First: locks the conversation's row (PostgreSQL), so messages written at once draw their numbers in turn.
  await trx.updateTable('conversations').set({ last_message_at: at }).where('id', '=', conversation.id).execute();
  await claimQuota(trx, 'messages', from, quota, now);
  const to = conversation.account_low === from ? conversation.account_high : conversation.account_low;
  const previous = await trx
    .selectFrom('messages')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('conversation_id', '=', conversation.id)
    .executeTakeFirst();
  const row: MessageRow = {
    removed_at: null,
    id: newId('msg'),
    conversation_id: conversation.id,
    seq: Number(previous?.seq ?? 0) + 1,
    sender_account_id: from,
    recipient_account_id: to,
    text,
    created_at: at,
    read_at: null,
  };
  await trx.insertInto('messages').values(row).execute();
  // The account's first answer to a conversation the other side opened: an answer time of its record.
  if (conversation.started_by !== from) {
    const earlier = await trx
      .selectFrom('messages')
      .select('id')
      .where('conversation_id', '=', conversation.id)
      .where('sender_account_id', '=', from)
      .where('id', '!=', row.id)
      .executeTakeFirst();
    if (!earlier) await refreshAccountRecords(trx, from);
  }
  const shield = await trx
    .selectFrom('conversations as c')
    .select(shieldOnSql.as('shield_on'))
    .where('c.id', '=', conversation.id)
    .executeTakeFirstOrThrow();
  const data = messageFor(row, to, Boolean(Number(shield.shield_on)));
  await recordEvent(trx, { type: 'message.created', subjectId: row.id, place, audience: [to], data }, now);
  return row;
}

/** The place of a conversation's subject (for its message events), null when the subject is gone. */
export async function placeOfConversation(
  db: Queryable,
  conversation: ConversationRow,
  now: Date,
): Promise<SubjectPlace | null> {
  const subject = await subjectFacts(db, { type: conversation.about_type, id: conversation.about_id }, now);
  return subject?.place ?? null;
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
