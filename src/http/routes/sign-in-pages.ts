import type { CookieSerializeOptions } from '@fastify/cookie';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import formBody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, type NotificationPreferences } from '../../domain/notifications.js';
import { sha256Hex } from '../../domain/secrets.js';
import { CODE_TTL_MINUTES, SESSION_DAYS, typedCode } from '../../domain/sign-in.js';
import type { Mailer } from '../../mail/mailer.js';
import type { PageLanguage } from '../../mail/sign-in-email.js';
import type { RateLimitStore } from '../../rate-limit/store.js';
import { ApiError } from '../../services/errors.js';
import { notificationSettings, updateNotificationSettings } from '../../services/notifications.js';
import { authorizationsOf, revokeAuthorization } from '../../services/oauth-grants.js';
import { passkeysOf, type RelyingParty } from '../../services/passkeys.js';
import {
  type CodeRequest,
  endSession,
  enterSignInCode,
  pendingCode,
  type SignedIn,
  sendSignInCode,
  sessionOfToken,
  sessionsOf,
} from '../../services/sign-in.js';
import { clientKey, countRequest } from '../budget.js';
import { sendHtmlPage } from '../html-page.js';
import type { OauthServer } from '../oauth-server.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { COOKIES } from '../site-cookies.js';
import { checkSignIn, checkSignUp } from '../views/sign-in-form.js';
import {
  accountPage,
  CANNOT_SIGN_IN,
  codePage,
  messagePage,
  type PageContext,
  type PageNotice,
  signInPage,
  signUpPage,
  type Words,
} from '../views/sign-in-pages.js';
import { writeContext } from '../write-kit.js';
import { CONSOLE_PATH, consoleRoutes } from './console-pages.js';
import { isCrossSite } from './developers.js';
import { oauthConsentRoutes } from './oauth-consent.js';
import { passkeyRoutes } from './passkey-routes.js';

export { COOKIES } from '../site-cookies.js';

/**
 * Where a sign-in may lead back to (`/signin?next=`): a draft's confirmation page of this site, and
 * nothing else, so the parameter can never send a person to another site or an arbitrary page.
 */
export function returnPathOf(value: unknown): string | undefined {
  return typeof value === 'string' &&
    (/^\/(confirm|oauth\/interaction)\/[A-Za-z0-9_-]{1,200}$/.test(value) || CONSOLE_PATH.test(value))
    ? value
    : undefined;
}

/**
 * Scripts only from this site (the passkey script and the WebAuthn library it uses, nothing
 * inline), which may call only this site.
 */
const CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** The largest form (a sign-up with a long name) fits many times over. */
const FORM_BODY_LIMIT = 4 * 1024;
const HOUR_MS = 3_600_000;

export interface SignInPageOptions {
  deps: RouteDeps;
  mailer: Mailer;
  store: RateLimitStore;
  /** Where e-mailed links point. */
  baseUrl: string;
  /** Codes an address may be sent, and a client address may ask for, per hour. */
  codesPerAddress: number;
  codesPerClient: number;
  /** The WebAuthn relying party passkeys are bound to (PUBLIC_URL). */
  party: RelyingParty;
  /** The OAuth authorization server whose login and consent these pages are. */
  oauth: () => Promise<OauthServer>;
}

/** Passkey ceremonies a client address may start per hour (each hands out a challenge). */
const PASSKEY_STARTS_PER_CLIENT = 60;

/**
 * `formTarget`: one more place a form of the page may lead to (the consent page's answer is
 * redirected to the app's redirect URI, and form-action governs the redirects a form submission
 * follows).
 */
const sendPage = (reply: FastifyReply, status: number, page: string, formTarget?: string) =>
  sendHtmlPage(
    reply,
    status,
    page,
    formTarget ? CSP.replace("form-action 'self'", `form-action 'self' ${formTarget}`) : CSP,
    { 'x-robots-tag': 'noindex', vary: 'Accept-Language, Cookie' },
  );

/** Over TLS, directly or as the trusted proxy says (TRUST_PROXY): then every cookie is Secure. */
const cookieOptions = (request: FastifyRequest, maxAgeSeconds?: number): CookieSerializeOptions => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secure: request.protocol === 'https',
  ...(maxAgeSeconds !== undefined && { maxAge: maxAgeSeconds }),
});

/** ?lang= (remembered in a cookie), else the cookie, else Accept-Language; German when nothing says. */
function languageOf(request: FastifyRequest, reply: FastifyReply): PageLanguage {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  if (asked === 'de' || asked === 'en') {
    reply.setCookie(COOKIES.language, asked, cookieOptions(request, 365 * 86_400));
    return asked;
  }
  const kept = request.cookies[COOKIES.language];
  if (kept === 'de' || kept === 'en') return kept;
  return new Negotiator(request).language(['de', 'en']) === 'en' ? 'en' : 'de';
}

const CROSS_SITE: PageNotice = {
  kind: 'error',
  de: 'Diese Anfrage kam von einer anderen Website oder aus einem veralteten Formular; es ist nichts geschehen. Versuchen Sie es hier noch einmal.',
  en: 'This request came from another website or an outdated form, so nothing was done. Try again here.',
};

const UNREADABLE: PageNotice = {
  kind: 'error',
  de: 'Dieses Formular konnte nicht gelesen werden; es ist nichts geschehen. Senden Sie es von dieser Seite aus.',
  en: 'This form could not be read, so nothing was done. Send it from this page.',
};

const FAILED: PageNotice = {
  kind: 'error',
  de: 'Das ging gerade auf unserer Seite schief. Versuchen Sie es gleich noch einmal.',
  en: 'Something went wrong on our side. Try again in a moment.',
};

/**
 * /signup, /signin, the code page, /account and /signout: server-rendered, in a plugin of its own
 * so that only here form bodies and cookies are read. Every POST must come from this site (the
 * Origin, Referer and Sec-Fetch-Site check of /developers) and carry the CSRF token of its form
 * (@fastify/csrf-protection, a double-submit secret in the kmp_csrf cookie).
 */
export async function signInPageRoutes(app: Api, options: SignInPageOptions): Promise<void> {
  const { deps, mailer, store } = options;
  await app.register(cookie);
  await app.register(csrfProtection, {
    cookieKey: COOKIES.csrf,
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true },
    getToken: (request) => (request.body as { _csrf?: string } | undefined)?._csrf,
  });
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });

  const context = (request: FastifyRequest, reply: FastifyReply, path: string): PageContext => ({
    language: languageOf(request, reply),
    path,
    csrf: reply.generateCsrf({ secure: request.protocol === 'https' }),
  });
  const signedIn = (request: FastifyRequest): Promise<SignedIn | undefined> =>
    sessionOfToken(deps.db, request.cookies[COOKIES.session], deps.now());
  const refuse = (request: FastifyRequest, reply: FastifyReply, status: number, shown: PageNotice) => {
    const path = request.url.split('?')[0] ?? '/signin';
    const next = path === '/signup' ? path : path.startsWith('/signin') ? '/signin' : '/account';
    return sendPage(
      reply,
      status,
      messagePage(context(request, reply, path), { de: 'Nicht ausgeführt', en: 'Not done' }, shown, {
        href: next,
        words: { de: 'Zurück zum Formular', en: 'Back to the form' },
      }),
    );
  };

  // Every failure is a page, never JSON: a wrong or missing CSRF token (403), a form that cannot be
  // read (its 4xx), and on our side (the mail server, the database, the rate-limit store) a 503.
  app.setErrorHandler((error: { code?: string; statusCode?: number; status?: number }, request, reply) => {
    if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
      request.log.warn({ sign_in: 'csrf_refused' }, 'form post without a valid CSRF token');
      return refuse(request, reply, 403, CROSS_SITE);
    }
    const status = error.statusCode ?? error.status ?? 500;
    if (status >= 400 && status < 500) return refuse(request, reply, status, UNREADABLE);
    request.log.error({ err: error }, 'sign-in page failed');
    return refuse(request, reply, 503, FAILED);
  });

  const post = {
    schema: { hide: true },
    bodyLimit: FORM_BODY_LIMIT,
    // Before the body is read: a post from another site is refused whatever it holds.
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      if (isCrossSite(request)) return refuse(request, reply, 403, CROSS_SITE);
    },
    preHandler: app.csrfProtection,
  };

  /** Counts a code request against the address's and the client's hourly budget; the seconds to wait when over either. */
  const overBudget = async (request: FastifyRequest, email: string): Promise<number | undefined> => {
    for (const [bucket, limit] of [
      [`sign-in:client:${clientKey(request.ip)}`, options.codesPerClient],
      // The address as a hash: the rate-limit store (Redis) never holds it.
      [`sign-in:address:${sha256Hex(email)}`, options.codesPerAddress],
    ] as const) {
      const hit = await countRequest(store, bucket, request, HOUR_MS);
      if (hit.count > limit) return Math.max(1, Math.ceil(hit.resetMs / 1000));
    }
    return undefined;
  };

  const sendCode = async (request: FastifyRequest, reply: FastifyReply, page: PageContext, asked: CodeRequest) => {
    const wait = await overBudget(request, asked.email);
    if (wait !== undefined) {
      request.log.warn({ sign_in: 'rate_limited', purpose: asked.purpose }, 'sign-in code refused: too many');
      const minutes = Math.ceil(wait / 60);
      reply.header('retry-after', String(wait));
      return refuse(request, reply, 429, {
        kind: 'error',
        de: `Zu viele Codes in der letzten Stunde. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} wieder.`,
        en: `Too many codes in the last hour. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
      });
    }
    const sending = { db: deps.db, mailer, now: deps.now(), baseUrl: options.baseUrl, language: page.language };
    const sent = await sendSignInCode(sending, asked);
    request.log.info(
      { sign_in: 'code_requested', purpose: asked.purpose, mailed: sent.sent },
      'sign-in code e-mail sent',
    );
    reply.setCookie(COOKIES.challenge, sent.challenge, cookieOptions(request, CODE_TTL_MINUTES * 60));
    return reply.code(303).header('location', '/signin/code').header('cache-control', 'no-store').send();
  };

  /** The session cookie of a new sign-in, and where the browser goes: back to a draft's page, or /account. */
  const signInTo = (request: FastifyRequest, reply: FastifyReply, token: string): string => {
    reply.setCookie(COOKIES.session, token, cookieOptions(request, SESSION_DAYS * 86_400));
    const back = returnPathOf(request.cookies[COOKIES.next]);
    if (!back) return '/account';
    reply.clearCookie(COOKIES.next, cookieOptions(request));
    return back;
  };

  passkeyRoutes(app, {
    deps,
    party: options.party,
    post,
    signedIn,
    language: languageOf,
    signInTo,
    overBudget: async (request) => {
      const hit = await countRequest(store, `passkey:client:${clientKey(request.ip)}`, request, HOUR_MS);
      return hit.count > PASSKEY_STARTS_PER_CLIENT ? Math.max(1, Math.ceil(hit.resetMs / 1000)) : undefined;
    },
  });

  oauthConsentRoutes(app, {
    deps,
    server: options.oauth,
    post,
    signedIn,
    context,
    sendPage,
    refuse,
    signInFirst: (request, reply, path) => {
      reply.setCookie(COOKIES.next, path, cookieOptions(request, CODE_TTL_MINUTES * 60));
      return reply
        .code(303)
        .header('location', `/signin?next=${encodeURIComponent(path)}`)
        .send();
    },
  });

  const toAccount = (reply: FastifyReply) => reply.code(303).header('location', '/account').send();
  const toSignIn = (reply: FastifyReply) => reply.code(303).header('location', '/signin').send();

  app.get('/signup', { schema: { hide: true } }, async (request, reply) => {
    if (await signedIn(request)) return toAccount(reply);
    return sendPage(reply, 200, signUpPage(context(request, reply, '/signup'), {}, {}));
  });

  app.post('/signup', post, async (request, reply) => {
    const page = context(request, reply, '/signup');
    const checked = checkSignUp(request.body);
    if (!checked.request) return sendPage(reply, 400, signUpPage(page, checked.values, checked.errors));
    return sendCode(request, reply, page, { purpose: 'signup', ...checked.request });
  });

  app.get('/signin', { schema: { hide: true } }, async (request, reply) => {
    const back = returnPathOf((request.query as { next?: unknown } | undefined)?.next);
    if (await signedIn(request)) return back ? reply.code(303).header('location', back).send() : toAccount(reply);
    // Remembered through the code's round trip, as long as a code lasts; a sign-in without it goes to /account.
    if (back) reply.setCookie(COOKIES.next, back, cookieOptions(request, CODE_TTL_MINUTES * 60));
    return sendPage(reply, 200, signInPage(context(request, reply, '/signin'), {}, {}));
  });

  app.post('/signin', post, async (request, reply) => {
    const page = context(request, reply, '/signin');
    const checked = checkSignIn(request.body);
    if (!checked.email) return sendPage(reply, 400, signInPage(page, checked.values, checked.errors));
    return sendCode(request, reply, page, { purpose: 'signin', email: checked.email });
  });

  const startAgain: PageNotice = {
    kind: 'error',
    de: 'Dieser Code ist abgelaufen, verbraucht oder wurde zu oft falsch eingegeben. Fordern Sie einen neuen an.',
    en: 'This code has expired, was used, or was entered wrongly too often. Ask for a new one.',
  };

  app.get('/signin/code', { schema: { hide: true } }, async (request, reply) => {
    const page = context(request, reply, '/signin/code');
    const pending = await pendingCode(deps.db, request.cookies[COOKIES.challenge], deps.now());
    if (!pending) return refuse(request, reply, 404, startAgain);
    return sendPage(reply, 200, codePage(page, pending.email, CODE_TTL_MINUTES));
  });

  app.post('/signin/code', post, async (request, reply) => {
    const page = context(request, reply, '/signin/code');
    const challenge = request.cookies[COOKIES.challenge];
    const typed = typedCode((request.body as { code?: unknown } | undefined)?.code);
    const start = { db: deps.db, now: deps.now(), userAgent: request.headers['user-agent'] };
    const outcome = await enterSignInCode(start, challenge, typed);
    request.log.info(
      { sign_in: outcome.outcome, ...('accountId' in outcome && { account_id: outcome.accountId }) },
      'sign-in code entered',
    );
    switch (outcome.outcome) {
      case 'unknown':
      case 'expired':
        return refuse(request, reply, outcome.outcome === 'unknown' ? 404 : 410, startAgain);
      case 'exhausted':
        return refuse(request, reply, 429, startAgain);
      case 'refused':
        reply.clearCookie(COOKIES.challenge, cookieOptions(request));
        return refuse(request, reply, 403, { kind: 'error', ...CANNOT_SIGN_IN });
      case 'wrong': {
        const pending = await pendingCode(deps.db, challenge, deps.now());
        const left = outcome.triesLeft;
        const wrong: PageNotice = {
          kind: 'error',
          de: `Dieser Code stimmt nicht. Noch ${left} ${left === 1 ? 'Versuch' : 'Versuche'}.`,
          en: `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
        };
        return sendPage(reply, 400, codePage(page, pending?.email ?? '', CODE_TTL_MINUTES, wrong));
      }
      case 'signed-in':
        reply.clearCookie(COOKIES.challenge, cookieOptions(request));
        return reply
          .code(303)
          .header('location', signInTo(request, reply, outcome.token))
          .send();
    }
  });

  /** What the account page shows of a signed-in person. */
  const accountView = async ({ account, session }: SignedIn) => {
    const sessions = (await sessionsOf(deps.db, account.id, deps.now())).map((row) => ({
      ...row,
      current: row.id === session.id,
    }));
    const passkeys = (await passkeysOf(deps.db, account.id)).map(({ id, name, created_at, last_used_at }) => ({
      id,
      name,
      created_at,
      last_used_at,
    }));
    const apps = (await authorizationsOf(deps.db, account.id, deps.now())).map((grant) => ({
      id: grant.id,
      name: grant.client_name ?? grant.client_id,
      scopes: grant.scopes,
      created_at: grant.created_at,
    }));
    return {
      name: account.name,
      email: account.email,
      account_type: account.account_type,
      sessions,
      passkeys,
      apps,
      notifications: await notificationSettings(deps.db, account),
    };
  };

  app.get('/account', { schema: { hide: true } }, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return toSignIn(reply);
    const view = await accountView(current);
    const saved = (request.query as { saved?: unknown }).saved === 'notifications';
    const shown: PageNotice | undefined = saved
      ? { kind: 'ok', de: 'Ihre Benachrichtigungen sind gespeichert.', en: 'Your notifications are saved.' }
      : undefined;
    return sendPage(reply, 200, accountPage(context(request, reply, '/account'), view, shown));
  });

  // The notification settings from the account page (issue 36): what the form holds is the whole
  // choice (an unticked box is a channel off, both quiet-hour fields empty none). The language
  // counts as chosen (also for the person's API answers) only when the form changes it. What is
  // wrong comes back next to its fields, with what was posted.
  app.post('/account/notifications', post, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return toSignIn(reply);
    const form = (request.body ?? {}) as Record<string, unknown>;
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
    const kinds = Object.fromEntries(
      NOTIFICATION_KINDS.map((kind) => [
        kind,
        Object.fromEntries(NOTIFICATION_CHANNELS.map((channel) => [channel, form[`${kind}.${channel}`] === 'on'])),
      ]),
    ) as NotificationPreferences['kinds'];
    const stored = await notificationSettings(deps.db, current.account);
    const posted = text('language');
    const language = posted === 'de' || posted === 'en' ? posted : stored.language;
    const [start, end] = [text('quiet_start'), text('quiet_end')];
    const digest = text('digest_time');
    const submitted: NotificationPreferences = {
      language,
      quiet_hours: start === '' && end === '' ? null : { start, end },
      digest_time: digest === '' ? stored.digest_time : digest,
      kinds,
    };
    const again = async (status: number, shown?: PageNotice, quietHoursError?: Words) => {
      const view = { ...(await accountView(current)), notifications: submitted, quietHoursError };
      return sendPage(reply, status, accountPage(context(request, reply, '/account'), view, shown));
    };
    if ((start === '') !== (end === '')) {
      return again(400, undefined, {
        de: 'Geben Sie Beginn und Ende der Ruhezeit an, oder lassen Sie beide Felder leer.',
        en: 'Give both the start and the end of the quiet hours, or leave both fields empty.',
      });
    }
    try {
      await updateNotificationSettings(writeContext(request, deps), current.account, {
        ...(language !== stored.language ? { language } : {}),
        quiet_hours: submitted.quiet_hours,
        digest_time: submitted.digest_time,
        kinds,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The service's own words: next to the quiet-hour fields where they are about those (an empty
      // span), else above the form (a time that is none: the browser's time field makes that rare).
      const words = { de: error.words('de').message, en: error.words('en').message };
      if (error.param?.startsWith('quiet_hours.')) return again(400, undefined, words);
      return again(400, { kind: 'error', ...words });
    }
    return reply.code(303).header('location', '/account?saved=notifications#notifications').send();
  });

  app.post('/account/sessions/revoke', post, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return toSignIn(reply);
    const id = (request.body as { session?: unknown } | undefined)?.session;
    if (typeof id === 'string') await endSession(deps.db, current.account.id, id, deps.now());
    if (id !== current.session.id) return toAccount(reply);
    reply.clearCookie(COOKIES.session, cookieOptions(request));
    return toSignIn(reply);
  });

  app.post('/account/apps/revoke', post, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return toSignIn(reply);
    const id = (request.body as { grant?: unknown } | undefined)?.grant;
    if (typeof id === 'string') {
      await revokeAuthorization({ db: deps.db, now: deps.now(), claim: null }, current.account.id, id);
    }
    return toAccount(reply);
  });

  app.post('/signout', post, async (request, reply) => {
    const current = await signedIn(request);
    if (current) await endSession(deps.db, current.account.id, current.session.id, deps.now());
    reply.clearCookie(COOKIES.session, cookieOptions(request));
    return toSignIn(reply);
  });

  consoleRoutes(app, { deps, mailer, baseUrl: options.baseUrl, post, context, cookieOptions });
}
