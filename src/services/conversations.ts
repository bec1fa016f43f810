import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.js';
import type { AccountRow, ConversationAbout, ConversationRow, Database, MessageRow } from '../db/schema.js';
import { berlinDate } from '../domain/berlin-time.js';
import { counterpartIn, dependsOnTaken } from '../domain/conversation-parties.js';
import { claimQuota } from '../repositories/account-quotas.js';
import {
  conversationOf,
  findConversation,
  findConversationAbout,
  findMessage,
  hasTaken,
  hasWrittenBefore,
  insertConversation,
  insertMessage,
  isShieldOn,
  listConversations,
  listMessages,
  markRead,
  messageFor,
  messagesBefore,
  nextMessageSeq,
  type SubjectPlace,
  subjectFacts,
  touchConversation,
} from '../repositories/conversations.js';
import { recordEvent } from '../repositories/outbox.js';
import { refreshAccountRecords } from '../repositories/reliability-records.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import {
  type Conversation,
  type ConversationCreateBody,
  MESSAGE_PAGE_SIZE,
  type Message,
} from '../schemas/conversations.js';
import { ApiError, badRequest } from './errors.js';

/** The hourly limits of an account's messages and new conversations. */
export interface Quotas {
  messages: number;
  conversations: number;
}

/** The other party of a subject for the caller, or why there is none. */
type Counterpart =
  | { ok: true; other: string; place: SubjectPlace }
  | { ok: false; problem: 'not_found' | 'self' | 'no_counterpart' };

/**
 * The other party of `about` for `accountId` (domain/conversation-parties.ts, counterpartIn); a
 * closed job or listing asks whether the caller applied to it or booked it only when the answer
 * depends on it.
 */
async function counterpartOf(
  db: Kysely<Database>,
  about: { type: ConversationAbout; id: string },
  accountId: string,
  now: Date,
): Promise<Counterpart> {
  const subject = await subjectFacts(db, about, now);
  if (!subject) return { ok: false, problem: 'not_found' };
  const taken =
    (about.type === 'job' || about.type === 'listing') &&
    dependsOnTaken(about.type, subject, accountId) &&
    (await hasTaken(db, { type: about.type, id: about.id }, accountId));
  const outcome = counterpartIn(about.type, subject, accountId, taken);
  return outcome.ok ? { ...outcome, place: subject.place } : outcome;
}

function conversationNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No conversation with the id '${id}' is yours.`, {
    param: 'id',
    suggestion: 'Check the id; GET /v1/conversations lists the conversations your account is part of.',
  });
}

const SUBJECT_LISTS = {
  job: 'GET /v1/jobs lists open jobs',
  listing: 'GET /v1/listings lists available listings',
  application: 'GET /v1/jobs/{id}/applications lists the applications to your jobs',
  booking: 'GET /v1/bookings/{id} shows a booking of yours',
} as const;

/**
 * Opens a conversation with the other party of `about` and posts the first message; asking again
 * about the same thing between the same two accounts adds the message to the conversation there
 * is. `created` says which (201 or 200).
 */
export async function startConversation(
  context: WriteContext,
  account: AccountRow,
  body: ConversationCreateBody,
  quotas: Quotas,
): Promise<{ conversation: Conversation; created: boolean }> {
  const { about } = body;
  const counterpart = await counterpartOf(context.db, about, account.id, context.now);
  if (!counterpart.ok) {
    switch (counterpart.problem) {
      case 'not_found':
        throw new ApiError(404, 'not_found', `No ${about.type} with the id '${about.id}' that you can write about.`, {
          param: 'about.id',
          suggestion: `Check the type and id: you can write about an open job or available listing, or about one you applied to or booked, and about your own applications and bookings (${SUBJECT_LISTS[about.type]}).`,
        });
      case 'self':
        throw badRequest(
          'invalid_parameter',
          'about',
          `You are the only party of this ${about.type}: a conversation needs another account.`,
          'Write about a job or listing of another account, or about an application or booking with another account.',
        );
      case 'no_counterpart':
        throw new ApiError(
          409,
          'no_counterpart',
          `This ${about.type} belongs to no account that can receive messages.`,
          {
            param: 'about.id',
            suggestion:
              'Jobs and listings of the seeded marketplace have no account behind them; write about one posted through the API.',
          },
        );
    }
  }
  const input = { about, from: account.id, to: counterpart.other, text: body.text, place: counterpart.place };
  const open = () => inWriteTransaction(context, (trx) => openOrAdd(trx, input, context.now, quotas));
  let opened: Awaited<ReturnType<typeof open>>;
  try {
    opened = await open();
  } catch (error) {
    // The other party opened the same conversation at the same moment: add to theirs.
    if (!isUniqueViolation(error)) throw error;
    opened = await open();
  }
  const found = await findConversation(context.db, opened.conversationId, account.id, berlinDate(context.now));
  if (!found) throw new Error(`conversation ${opened.conversationId} vanished after it was written`);
  return { conversation: found.conversation, created: opened.created };
}

export function conversationsOf(
  db: Kysely<Database>,
  account: AccountRow,
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ data: Conversation[]; total: number }> {
  return listConversations(db, account.id, page, berlinDate(now));
}

export async function conversationById(
  db: Kysely<Database>,
  account: AccountRow,
  id: string,
  now: Date,
): Promise<Conversation> {
  const found = await findConversation(db, id, account.id, berlinDate(now));
  if (!found) throw conversationNotFound(id);
  return found.conversation;
}

export async function messagesOf(
  db: Kysely<Database>,
  account: AccountRow,
  id: string,
  query: { after?: string | undefined; limit?: number | undefined },
  now: Date,
): Promise<{ data: Message[]; has_more: boolean }> {
  const found = await findConversation(db, id, account.id, berlinDate(now));
  if (!found) throw conversationNotFound(id);
  let after: Awaited<ReturnType<typeof findMessage>>;
  if (query.after !== undefined) {
    after = await findMessage(db, id, query.after);
    if (!after) {
      throw badRequest(
        'invalid_parameter',
        'after',
        `after must be the id of a message of this conversation; '${query.after}' is none.`,
        'Send the id of the last message of the page before, or leave after out to start from the first message.',
      );
    }
  }
  return listMessages(db, id, account.id, found.shieldOn, { after, limit: query.limit ?? MESSAGE_PAGE_SIZE });
}

export async function postMessage(
  context: WriteContext,
  account: AccountRow,
  id: string,
  text: string,
  quota: number,
): Promise<Message> {
  const conversation = await conversationOf(context.db, id, account.id);
  if (!conversation) throw conversationNotFound(id);
  const subject = await subjectFacts(
    context.db,
    { type: conversation.about_type, id: conversation.about_id },
    context.now,
  );
  // The subject's place, for the event; null when the subject is gone.
  const place = subject?.place ?? null;
  const row = await inWriteTransaction(context, (trx) =>
    addMessage(trx, conversation, account.id, text, place, context.now, quota),
  );
  return messageFor(row, account.id, false);
}

export async function markConversationRead(
  context: WriteContext,
  account: AccountRow,
  id: string,
): Promise<Conversation> {
  const conversation = await conversationOf(context.db, id, account.id);
  if (!conversation) throw conversationNotFound(id);
  await inWriteTransaction(context, (trx) => markRead(trx, id, account.id, context.now));
  return conversationById(context.db, account, id, context.now);
}

/**
 * Opens the conversation of the caller and `to` about a subject (or finds it) and adds the first
 * message, in the write transaction: the hourly limits are claimed there (a new conversation counts
 * against both), and a concurrent opening of the same conversation is a unique violation the caller
 * retries as an addition.
 */
async function openOrAdd(
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
  const row = await insertConversation(trx, input, now);
  const message = await addMessage(trx, row, input.from, input.text, input.place, now, quotas.messages);
  return { conversationId: row.id, created: true, message };
}

/**
 * Adds a message from `from` to the conversation: the conversation locked first, the hourly quota
 * claimed, the message numbered and written, the sender's record refreshed when it is their first
 * answer to a conversation the other side opened, and message.created recorded for the recipient
 * (a private event: their webhooks and private stream) with the message as the recipient reads it.
 */
async function addMessage(
  trx: WriteTransaction,
  conversation: ConversationRow,
  from: string,
  text: string,
  place: SubjectPlace | null,
  now: Date,
  quota: number,
): Promise<MessageRow> {
  await touchConversation(trx, conversation.id, now);
  await claimQuota(trx, 'messages', from, quota, now);
  const to = conversation.account_low === from ? conversation.account_high : conversation.account_low;
  const seq = await nextMessageSeq(trx, conversation.id);
  const row = await insertMessage(trx, { conversationId: conversation.id, seq, from, to, text }, now);
  // The account's first answer to a conversation the other side opened: an answer time of its record.
  if (conversation.started_by !== from && !(await hasWrittenBefore(trx, conversation.id, from, row.id))) {
    await refreshAccountRecords(trx, from);
  }
  // As the recipient reads it: with the sender's messages just before it (a number split over several).
  const before = await messagesBefore(trx, conversation.id, row.seq);
  const data = messageFor(row, to, await isShieldOn(trx, conversation.id, berlinDate(now)), [...before, row]);
  await recordEvent(trx, { type: 'message.created', subjectId: row.id, place, audience: [to], data }, now);
  return row;
}
