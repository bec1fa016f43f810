import { DEFAULT_PAGE_SIZE, NoQuery, RefTo } from '../../schemas/common.js';
import {
  ConversationCreateBody,
  ConversationListQuery,
  ConversationPage,
  ConversationParams,
  ConversationSchema,
  MessageCreateBody,
  MessageListQuery,
  MessagePage,
  MessageSchema,
  SHIELD_RULE,
} from '../../schemas/conversations.js';
import {
  conversationById,
  conversationsOf,
  markConversationRead,
  messagesOf,
  postMessage,
  startConversation,
} from '../../services/conversations.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

export function conversationRoutes(app: Api, deps: RouteDeps): void {
  const { db, quotas, now } = deps;
  // Whole paragraphs, so the document writes each once, in the Conversations tag (openapi/compact.ts).
  const limits = `**Limits.** An account sends at most ${quotas.messages} messages per hour (MESSAGES_PER_ACCOUNT_PER_HOUR) and opens at most ${quotas.conversations} new conversations per hour (NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR): beyond either, 429 account_limit_reached with Retry-After.`;
  const privacy =
    '**Privacy.** Only the two accounts of a conversation see it: for anyone else every conversation id answers 404, the same answer as an id that does not exist. The other party is shown by first name and initial, never by e-mail or account id.';

  app.post(
    '/v1/conversations',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'startConversation',
        summary: 'Write to the other party of a job, listing, application or booking',
        description: `Opens a conversation with the other party of \`about\` and posts the first message: the owner of a job or listing you can see (an open job, an available listing, or one you applied to or booked), the other side of your application or booking. 201 with the conversation. Asking again about the same thing between the same two accounts adds the message to the conversation you have (200, the same conversation). Writing about your own job or listing is a 400; a seeded job or listing (no account behind it) is a 409 no_counterpart. message.created goes to the recipient's webhooks and private stream (GET /v1/me/events/stream).\n\n${limits}\n\n${SHIELD_RULE}\n\n${privacy}`,
        tags: ['Conversations'],
        security: WRITE_SECURITY,
        querystring: NoQuery,
        body: ConversationCreateBody,
        response: {
          200: ok(RefTo(ConversationSchema), 'The conversation you already had: the message was added to it.'),
          201: created(RefTo(ConversationSchema), 'The new conversation, with your message as its last.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const { conversation, created: isNew } = await startConversation(
        writeContext(request, deps),
        account,
        request.body,
        quotas,
      );
      if (isNew) return sendCreated(reply, `/v1/conversations/${conversation.id}`, conversation);
      return conversation;
    },
  );

  app.get(
    '/v1/conversations',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listConversations',
        summary: 'Your conversations',
        description: `The conversations of the calling account, latest activity first, each with its unread_count and last message.\n\n${privacy}`,
        tags: ['Conversations'],
        security: WRITE_SECURITY,
        querystring: ConversationListQuery,
        response: { 200: ok(ConversationPage, 'A page of conversations.'), ...errorResponses(400) },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? DEFAULT_PAGE_SIZE;
      const offset = request.query.offset ?? 0;
      const page = await conversationsOf(db, requireAccount(request), { limit, offset }, now());
      return { ...page, limit, offset };
    },
  );

  app.get(
    '/v1/conversations/:id',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'getConversation',
        summary: 'Get a conversation',
        description: `One conversation of the calling account.\n\n${privacy}`,
        tags: ['Conversations'],
        security: WRITE_SECURITY,
        params: ConversationParams,
        querystring: NoQuery,
        response: { 200: ok(RefTo(ConversationSchema), 'The conversation.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => conversationById(db, requireAccount(request), request.params.id, now()),
  );

  app.get(
    '/v1/conversations/:id/messages',
    {
      onRequest: WRITE_HOOKS.onRequest,
      schema: {
        operationId: 'listMessages',
        summary: 'The messages of a conversation',
        description: `Oldest first, \`limit\` at a time (50 by default); the next page starts after the last id of this one (\`after\`), has_more says whether there is one. Reading does not mark messages read: POST /v1/conversations/{id}/read does.\n\n${SHIELD_RULE}\n\n${privacy}`,
        tags: ['Conversations'],
        security: WRITE_SECURITY,
        params: ConversationParams,
        querystring: MessageListQuery,
        response: { 200: ok(MessagePage, 'A page of messages.'), ...errorResponses(400, 404) },
      },
    },
    async (request) => messagesOf(db, requireAccount(request), request.params.id, request.query, now()),
  );

  app.post(
    '/v1/conversations/:id/messages',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'postMessage',
        summary: 'Write in a conversation',
        description: `Adds a message to a conversation of the calling account: 201 with the message as you read it. message.created goes to the other party's webhooks and private stream, with the message as they read it (the shield applies).\n\n${limits}\n\n${SHIELD_RULE}\n\n${privacy}`,
        tags: ['Conversations'],
        security: WRITE_SECURITY,
        params: ConversationParams,
        querystring: NoQuery,
        body: MessageCreateBody,
        response: {
          201: created(RefTo(MessageSchema), 'The message.'),
          ...errorResponses(400, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const message = await postMessage(
        writeContext(request, deps),
        requireAccount(request),
        id,
        request.body.text,
        quotas.messages,
      );
      return sendCreated(reply, `/v1/conversations/${id}/messages`, message);
    },
  );

  app.post(
    '/v1/conversations/:id/read',
    {
      ...WRITE_HOOKS,
      schema: {
        operationId: 'markConversationRead',
        summary: 'Mark a conversation read',
        description: `Sets read_at on every message to the calling account in the conversation that has none (the other party then sees when you read them); unread_count becomes 0.\n\n${privacy}`,
        tags: ['Conversations'],
        security: WRITE_SECURITY,
        params: ConversationParams,
        querystring: NoQuery,
        response: {
          200: ok(RefTo(ConversationSchema), 'The conversation, read.'),
          ...errorResponses(400, 404, 413, 415, 422),
        },
      },
    },
    async (request) => markConversationRead(writeContext(request, deps), requireAccount(request), request.params.id),
  );
}
