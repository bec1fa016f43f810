import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/errors.js';
import type { AccountRow, Database } from '../db/schema.js';
import {
  addMessage,
  conversationOf,
  counterpartOf,
  findConversation,
  findMessage,
  listConversations,
  listMessages,
  markRead,
  messageFor,
  openConversation,
  placeOfConversation,
  type Quotas,
} from '../repositories/conversations.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import {
  type Conversation,
  type ConversationCreateBody,
  MESSAGE_PAGE_SIZE,
  type Message,
} from '../schemas/conversations.js';
import { ApiError, badRequest } from './errors.js';

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
  const open = () => inWriteTransaction(context, (trx) => openConversation(trx, input, context.now, quotas));
  let opened: Awaited<ReturnType<typeof open>>;
  try {
    opened = await open();
  } catch (error) {
    // The other party opened the same conversation at the same moment: add to theirs.
    if (!isUniqueViolation(error)) throw error;
    opened = await open();
  }
  const found = await findConversation(context.db, opened.conversationId, account.id);
  if (!found) throw new Error(`conversation ${opened.conversationId} vanished after it was written`);
  return { conversation: found.conversation, created: opened.created };
}

export function conversationsOf(
  db: Kysely<Database>,
  account: AccountRow,
  page: { limit: number; offset: number },
): Promise<{ data: Conversation[]; total: number }> {
  return listConversations(db, account.id, page);
}

export async function conversationById(db: Kysely<Database>, account: AccountRow, id: string): Promise<Conversation> {
  const found = await findConversation(db, id, account.id);
  if (!found) throw conversationNotFound(id);
  return found.conversation;
}

export async function messagesOf(
  db: Kysely<Database>,
  account: AccountRow,
  id: string,
  query: { after?: string | undefined; limit?: number | undefined },
): Promise<{ data: Message[]; has_more: boolean }> {
  const found = await findConversation(db, id, account.id);
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
  const place = await placeOfConversation(context.db, conversation, context.now);
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
  return conversationById(context.db, account, id);
}
