/**
 * What an app or agent may do for a person (issue 31): the OAuth scopes, their words on the consent
 * page, and which scope each request made with an access token needs. One table, so what a grant
 * allows is visible in one place.
 */

export type Words = { de: string; en: string };

/** Scopes of the API (the resource servers /v1 and /mcp), with what the consent page says of each. */
export const API_SCOPES = {
  profile: { de: 'Ihren Namen und Ihr Konto lesen', en: 'Read your name and account' },
  'jobs:write': {
    de: 'Aufträge für Sie einstellen, ändern, absagen und abschließen',
    en: 'Post, edit, cancel and complete jobs for you',
  },
  'applications:write': {
    de: 'Sich für Sie auf Aufträge bewerben und Bewerbungen annehmen oder ablehnen',
    en: 'Apply to jobs for you and accept or reject applications',
  },
  'listings:write': {
    de: 'Ihre Angebote zum Verleihen einstellen und ändern',
    en: 'Post and edit your listings for lending',
  },
  'bookings:write': { de: 'Für Sie buchen und Ihre Buchungen verwalten', en: 'Book for you and manage your bookings' },
  messages: { de: 'Ihre Nachrichten lesen und für Sie schreiben', en: 'Read your messages and write for you' },
  'reviews:write': { de: 'Bewertungen für Sie schreiben und beantworten', en: 'Write and answer reviews for you' },
  'saved-searches': { de: 'Ihre gespeicherten Suchen lesen und verwalten', en: 'Read and manage your saved searches' },
  events: { de: 'Ihre Ereignisse empfangen (Ihr privater Stream)', en: 'Receive your events (your private stream)' },
  export: { de: 'Eine Kopie all Ihrer Daten abrufen', en: 'Download a copy of all your data' },
  payments: { de: 'Ihre Zahlungen lesen', en: 'Read your payments' },
} as const satisfies Record<string, Words>;

export type ApiScope = keyof typeof API_SCOPES;
export const API_SCOPE_NAMES = Object.keys(API_SCOPES) as ApiScope[];

/**
 * OpenID Connect's own scope: who you are (sub, and name with profile). offline_access is not
 * offered on the consent page: refresh tokens come with the refresh_token grant, and an app stays
 * connected until the person disconnects it (refresh tokens last 30 days from their last use, a grant a year).
 */
export const OIDC_SCOPES = {
  openid: { de: 'Sie erkennen (eine Kennung, kein Name)', en: 'Recognise you (an identifier, not your name)' },
} as const satisfies Record<string, Words>;

export const isApiScope = (scope: string): scope is ApiScope => Object.hasOwn(API_SCOPES, scope);

/** What a request made with an access token needs: none beyond the token, one of these scopes, or never allowed. */
export type ScopeNeed = { kind: 'none' } | { kind: 'scope'; scope: ApiScope } | { kind: 'never'; why: string };

const NONE: ScopeNeed = { kind: 'none' };
const need = (scope: ApiScope): ScopeNeed => ({ kind: 'scope', scope });

/**
 * Routes by method and (Fastify) path pattern, most specific first. Reads of the public
 * marketplace need no scope; a person's own data and every write need theirs; what is never
 * delegated (erasing the account, developer keys and OAuth clients, the person's grants) is refused
 * to every token, whatever its scopes.
 */
const RULES: [RegExp, RegExp, ScopeNeed][] = [
  [/^DELETE$/, /^\/v1\/me$/, { kind: 'never', why: 'Erasing an account is never done for someone else.' }],
  [/./, /^\/v1\/me\/authorizations/, { kind: 'never', why: "A person's connected apps are managed by the person." }],
  [/./, /^\/v1\/oauth-clients/, { kind: 'never', why: 'OAuth clients are registered with a developer key.' }],
  [/./, /^\/v1\/developer\//, { kind: 'never', why: 'Developer keys are requested by people, not apps.' }],
  // What would outlive a disconnected app, or speaks for the person in law, stays the person's own.
  [
    /./,
    /^\/v1\/webhooks(\/|$)/,
    {
      kind: 'never',
      why: 'Webhooks would outlive the app: an app receives the person’s events on the private stream.',
    },
  ],
  [
    /^(POST|DELETE)$/,
    /^\/v1\/me\/calendar-feed$/,
    { kind: 'never', why: 'A calendar feed URL would outlive the app.' },
  ],
  [/^PUT$/, /^\/v1\/me\/provider$/, { kind: 'never', why: 'Legal details (Impressum) are given by the person.' }],
  [
    /^POST$/,
    /^\/v1\/(reports|me\/moderation-decisions\/:id\/appeals)$/,
    { kind: 'never', why: 'Notices and appeals are the person’s own statements.' },
  ],
  // Exact places (a home) are released to the parties of a deal, counted per person: not through apps.
  [
    /./,
    /^\/v1\/(jobs|listings|helpers)\/:id\/location$/,
    { kind: 'never', why: 'Exact places are released to the person, not to apps.' },
  ],
  [
    /^POST$/,
    /^\/v1\/payments\/:id\/(paid|received|release)$/,
    { kind: 'never', why: 'Saying money was paid, received or given back is the person’s own statement.' },
  ],
  [
    /^POST$/,
    /^\/v1\/claims\/:id\/accept$/,
    { kind: 'never', why: 'Agreeing to pay a claim is the person’s own decision; an app may dispute it for them.' },
  ],
  [/^(GET|HEAD)$/, /^\/v1\/claims\/:id$/, need('payments')],
  [/^POST$/, /^\/v1\/claims\/:id\/dispute$/, need('bookings:write')],
  // Preparing a payment at Stripe is delegated; paying happens in the person's own browser (SCA).
  [/^POST$/, /^\/v1\/payments\/:id\/checkout$/, need('payments')],
  [/^(GET|HEAD)$/, /^\/v1\/payments(\/|$)/, need('payments')],
  [/^(GET|HEAD)$/, /^\/v1\/me\/payouts$/, need('payments')],
  [/./, /^\/v1\/me\/payouts\/onboarding$/, { kind: 'never', why: 'Payouts are set up by the person, at Stripe.' }],
  [/^(GET|HEAD)$/, /^\/v1\/me\/bank-account$/, need('payments')],
  [/./, /^\/v1\/me\/bank-account$/, { kind: 'never', why: 'Bank details are given by the person.' }],
  [/^(GET|HEAD)$/, /^\/v1\/me\/export$/, need('export')],
  [/./, /^\/v1\/(me\/events|events)(\/|$)/, need('events')],
  [/./, /^\/v1\/conversations(\/|$)/, need('messages')],
  [/./, /^\/v1\/saved-searches(\/|$)/, need('saved-searches')],
  [
    /^(POST|DELETE)$/,
    /^\/v1\/me\/busy-calendars/,
    { kind: 'never', why: 'A calendar’s secret address is given, and taken back, by the person.' },
  ],
  // Waiting for a listing's time is part of booking it.
  [/./, /^\/v1\/(me\/waitlist|waitlist\/:id|listings\/:id\/waitlist)$/, need('bookings:write')],
  [/^(GET|HEAD)$/, /^\/v1\/me(\/|$)/, need('profile')],
  [/^(GET|HEAD)$/, /^\/v1\/reports\/:id$/, need('profile')],
  [/./, /^\/v1\/drafts(\/|$)/, need('profile')],
  [/^(GET|HEAD)$/, /^\/v1\/reviews\/:id$/, need('reviews:write')],
  [
    /^POST$/,
    /^\/v1\/(jobs\/:id\/applications\/:application_id\/reviews|bookings\/:id\/reviews|reviews\/:id\/reply)$/,
    need('reviews:write'),
  ],
  [
    /^POST$/,
    /^\/v1\/jobs\/:id\/applications\/:application_id\/no-show$/,
    { kind: 'never', why: 'A no-show moves money between the two sides; the person reports it.' },
  ],
  [
    /^POST$/,
    /^\/v1\/jobs\/:id\/applications(\/:application_id\/(accept|reject|confirm-completion|object-to-completion))?$/,
    need('applications:write'),
  ],
  [/^(GET|HEAD)$/, /^\/v1\/jobs\/:id\/applications/, need('applications:write')],
  [/^(POST|PATCH)$/, /^\/v1\/(jobs|helpers)(\/|$)/, need('jobs:write')],
  [/./, /^\/v1\/job-series\/:id\/applications/, need('applications:write')],
  [/^(POST|PATCH)$/, /^\/v1\/job-series(\/|$)/, need('jobs:write')],
  [/^(GET|HEAD)$/, /^\/v1\/job-series$/, need('jobs:write')],
  [/^(POST|PATCH)$/, /^\/v1\/listings\/:id\/bookings$/, need('bookings:write')],
  [/^(POST|PATCH)$/, /^\/v1\/listings(\/|$)/, need('listings:write')],
  [/./, /^\/v1\/bookings(\/|$)/, need('bookings:write')],
  [/^(GET|HEAD)$/, /^\/v1\//, NONE],
  [/^POST$/, /^\/mcp$/, NONE],
];

/** What a request needs of its token: by its method and matched route pattern. Unlisted writes are never delegated. */
export function scopeNeed(method: string, route: string): ScopeNeed {
  for (const [methods, path, what] of RULES) if (methods.test(method) && path.test(route)) return what;
  return { kind: 'never', why: 'This operation is not open to apps acting for a person.' };
}
