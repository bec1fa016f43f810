import { type Static, Type } from 'typebox';
import { Nullable, PlainText, StringEnum, Text } from './common.js';

export const KeyRequestBody = Type.Object(
  {
    name: Text(1, 100, 'Your name.'),
    email: Type.String({
      format: 'email',
      // Also an ordinary address (a dot in the domain, no quoted parts or IP literals), so that the
      // form and the JSON endpoint, validated by different engines, agree on what is valid.
      pattern: '^[^\\s@"()<>\\[\\],;:\\\\]+@[^\\s@"()<>\\[\\],;:\\\\]+\\.[^\\s@"()<>\\[\\],;:\\\\]+$',
      maxLength: 254,
      description: 'Where the key is sent.',
    }),
    organisation: Type.Optional(Nullable(PlainText(200), { description: 'Company, club or project.' })),
    account_type: StringEnum(['private', 'commercial'] as const, {
      description: 'commercial accounts may set job deadlines at most 30 days ahead.',
    }),
    intended_use: Text(10, 2000, 'What you want to build, in a sentence or two.'),
  },
  { additionalProperties: false },
);
export type KeyRequestBody = Static<typeof KeyRequestBody>;

export const KeyRequestAccepted = Type.Object(
  {
    id: Type.String({ description: 'Request id, prefixed `kr_`.' }),
    status: Type.Literal('pending'),
    created_at: Type.String({ format: 'date-time' }),
    review_within_hours: Type.Integer({ description: 'Requests are reviewed within this many hours.' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const MeSchema = Type.Object(
  {
    tier: StringEnum(['anonymous', 'developer', 'sandbox'] as const),
    access: Type.String({ description: 'What the tier may do.' }),
    account: Nullable(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          email: Type.String(),
          organisation: Nullable(Type.String()),
          account_type: StringEnum(['private', 'commercial'] as const),
        },
        { additionalProperties: false },
      ),
      { description: 'The account of the calling key; null without a key.' },
    ),
    key: Nullable(
      Type.Object(
        {
          id: Type.String(),
          masked: Type.String({ description: 'The key as shown after issue: prefix and last four characters.' }),
          created_at: Type.String({ format: 'date-time' }),
          expires_at: Nullable(Type.String({ format: 'date-time' }), {
            description: 'Set once the key was rotated: it works until then.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
    app: Nullable(
      Type.Object({ client_id: Type.String(), scopes: Type.Array(Type.String()) }, { additionalProperties: false }),
      {
        description:
          'With an OAuth access token: the app acting for the account, and the scopes granted (key is then null).',
      },
    ),
    rate_limit: Type.Object(
      {
        limit: Type.Integer({ description: 'Requests per window.' }),
        remaining: Type.Integer({ description: 'Requests left in this window, after this one.' }),
        reset_seconds: Type.Integer({ description: 'Seconds until the window ends.' }),
        window_seconds: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'Me', additionalProperties: false },
);
export type Me = Static<typeof MeSchema>;
