import { type Static, Type } from 'typebox';
import { MASK } from '../domain/contact-shield.js';
import { MAX_PAGE_SIZE, Nullable, PageFields, PagingQuery, RefTo, StringEnum, Text } from './common.js';

export const CONVERSATION_ABOUT = ['job', 'listing', 'application', 'booking'] as const;

/** Messages per page when `limit` is not given. */
export const MESSAGE_PAGE_SIZE = 50;

/** The most a message may say, in characters. */
export const MESSAGE_MAX_CHARS = 4000;

/** Ids are a prefix and hex digits (cnv_4f9c2a7b1d3e5f60); anything else is a 400 before any lookup. */
const ID_PATTERN = '^[A-Za-z0-9_-]+$';
const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: ID_PATTERN, description });

const MessageText = Text(
  1,
  MESSAGE_MAX_CHARS,
  `The message, 1 to ${MESSAGE_MAX_CHARS} characters that show something (not only spaces), without direction controls.`,
);

export const SHIELD_RULE = `**Contact-data shield.** Until the application is accepted or the booking's first day (for a conversation about a job: until the other party has an accepted application to it; about a booking or a listing: until the other party's confirmed booking of it has begun, or is active or returned; not from the confirmation, which an instant booking gets at once and may cancel free of charge), the other party reads contact data as "${MASK}", with contact_data_hidden true: e-mail addresses (also "name at web dot de", "name (at) gmx (punkt) net", look-alike or invisible characters), phone and account numbers (any format, digits spaced, spelled out in German or English, keycap or mathematical digits), IBANs, messenger, social and payment links and handles (wa.me, t.me, paypal.me, linkedin.com/in, @name). A message is read with its sender's two before it: a number split over three messages is masked in each. The sender always reads what they wrote; once the deal is made, both read the stored text in full. Keep both sides inside the platform's protection until they have agreed.`;

export const AboutSchema = Type.Object(
  {
    type: StringEnum(CONVERSATION_ABOUT, { description: 'What the conversation is about.' }),
    id: Id('Its id: a job (job_...), listing (lst_...), application (app_...) or booking (bkg_...).'),
  },
  { additionalProperties: false },
);

export const ConversationCreateBody = Type.Object(
  {
    about: AboutSchema,
    text: MessageText,
  },
  { additionalProperties: false },
);
export type ConversationCreateBody = Static<typeof ConversationCreateBody>;

export const MessageCreateBody = Type.Object({ text: MessageText }, { additionalProperties: false });

export const MessageSchema = Type.Object(
  {
    id: Type.String({ description: 'Message id, prefixed `msg_`.' }),
    conversation_id: Type.String(),
    from: StringEnum(['me', 'them'] as const, { description: 'Who wrote it, seen from the caller.' }),
    text: Type.String({ description: 'As written, or with contact data masked (see contact_data_hidden).' }),
    contact_data_hidden: Type.Boolean({
      description: 'Whether the contact-data shield masked parts of the text for the caller.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    read_at: Nullable(Type.String({ format: 'date-time' }), {
      description: 'When the recipient read it; null: unread.',
    }),
  },
  {
    $id: 'Message',
    additionalProperties: false,
    description:
      'A message of a conversation; contact data in it may be masked (the contact-data shield, see the Conversations section).',
  },
);
export type Message = Static<typeof MessageSchema>;

export const ConversationSchema = Type.Object(
  {
    id: Type.String({ description: 'Conversation id, prefixed `cnv_`.' }),
    about: AboutSchema,
    with: Type.Object(
      { name: Type.String({ description: 'The other party as a first name and initial ("Anna S.").' }) },
      { additionalProperties: false, description: 'The other party: never its e-mail or account id.' },
    ),
    started_by: StringEnum(['me', 'them'] as const),
    contact_shield: Type.Boolean({
      description:
        'Whether the contact-data shield is on: true until the application is accepted or the confirmed booking has begun.',
    }),
    unread_count: Type.Integer({ minimum: 0, description: 'Messages to the caller it has not marked read.' }),
    last_message: RefTo(MessageSchema),
    created_at: Type.String({ format: 'date-time' }),
    last_message_at: Type.String({ format: 'date-time' }),
  },
  {
    $id: 'Conversation',
    additionalProperties: false,
    description:
      'Two accounts talking about one job, listing, application or booking. Only the two see it: anyone else gets 404.',
  },
);
export type Conversation = Static<typeof ConversationSchema>;

export const ConversationPage = Type.Object(
  {
    data: Type.Array(RefTo(ConversationSchema), { description: 'Latest activity first.' }),
    ...PageFields,
  },
  { additionalProperties: false },
);

export const ConversationListQuery = Type.Object(
  { limit: PagingQuery.limit, offset: PagingQuery.offset },
  { additionalProperties: false },
);

export const MessagePage = Type.Object(
  {
    data: Type.Array(RefTo(MessageSchema), { description: 'Oldest first.' }),
    has_more: Type.Boolean({
      description: 'Whether messages follow: ask again with after = the last id of this page.',
    }),
  },
  { additionalProperties: false },
);

export const MessageListQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: ID_PATTERN,
        description: 'A message id of this conversation: the page starts after it. Left out: from the first message.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        format: 'int32',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: MESSAGE_PAGE_SIZE,
        description: 'Messages per page.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ConversationParams = Type.Object(
  { id: Id('Conversation id, e.g. cnv_4f9c2a7b1d3e5f60.') },
  { additionalProperties: false },
);
