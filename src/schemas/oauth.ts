import { type Static, Type } from 'typebox';
import { Nullable } from './common.js';

/** An app a person connected (issue 31): what an OAuth grant gives it. */
export const AuthorizationSchema = Type.Object(
  {
    id: Type.String({ description: 'The grant; DELETE it to disconnect the app.' }),
    client_id: Type.String(),
    client_name: Nullable(Type.String()),
    scopes: Type.Array(Type.String(), { description: 'What the app may do for you.' }),
    resources: Type.Array(Type.String(), { description: 'Where its tokens work: …/v1, …/mcp.' }),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'Authorization', additionalProperties: false },
);
export type Authorization = Static<typeof AuthorizationSchema>;

const SCOPE_NAMES = [
  'profile',
  'jobs:write',
  'applications:write',
  'listings:write',
  'bookings:write',
  'messages',
  'reviews:write',
  'saved-searches',
  'events',
  'export',
  'payments',
] as const;

const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 500, format: 'uri' }), {
  minItems: 1,
  maxItems: 10,
  uniqueItems: true,
  description:
    'Matched exactly. https, http only on 127.0.0.1, [::1] or localhost, or an app scheme (com.example.app:/cb).',
});
const Scopes = Type.Array(Type.Union(SCOPE_NAMES.map((s) => Type.Literal(s))), {
  uniqueItems: true,
  maxItems: SCOPE_NAMES.length,
  description: 'The scopes the app may ask people for (all when left out).',
});
const ClientName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '\\S',
  description: 'Shown on the consent page.',
});
const WebUri = Type.String({ maxLength: 500, format: 'uri', pattern: '^https://', description: 'https only.' });

/** An OAuth client a developer registered (issue 31). */
export const OauthClientSchema = Type.Object(
  {
    id: Type.String({ description: 'The client_id.' }),
    name: Type.String(),
    type: Type.Union([Type.Literal('public'), Type.Literal('confidential')], {
      description: 'public: PKCE only (apps, agents); confidential: also a client secret (servers).',
    }),
    redirect_uris: Type.Array(Type.String()),
    logo_uri: Nullable(Type.String()),
    client_uri: Nullable(Type.String()),
    scopes: Type.Array(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OauthClient', additionalProperties: false },
);
export type OauthClient = Static<typeof OauthClientSchema>;

export const OauthClientCreateBody = Type.Object(
  {
    name: ClientName,
    redirect_uris: RedirectUris,
    type: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('confidential')], { default: 'public' })),
    logo_uri: Type.Optional(WebUri),
    client_uri: Type.Optional(WebUri),
    scopes: Type.Optional(Scopes),
  },
  { additionalProperties: false },
);
export type OauthClientCreate = Static<typeof OauthClientCreateBody>;

export const OauthClientUpdateBody = Type.Object(
  {
    name: Type.Optional(ClientName),
    redirect_uris: Type.Optional(RedirectUris),
    logo_uri: Type.Optional(Nullable(WebUri)),
    client_uri: Type.Optional(Nullable(WebUri)),
    scopes: Type.Optional(Scopes),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type OauthClientUpdate = Static<typeof OauthClientUpdateBody>;
