/**
 * Passkeys on the sign-in pages (issue 31): the JSON calls the pages' one script makes
 * (assets/passkeys.js, with @simplewebauthn/browser), and the form that removes a passkey. The
 * pages work without them: a browser without JavaScript or WebAuthn signs in with an e-mailed code.
 * Registered inside signInPageRoutes, so the same cookies, CSRF tokens and cross-site refusal apply.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { PageLanguage } from '../../mail/sign-in-email.js';
import {
  addPasskey,
  MAX_PASSKEY_NAME,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  type RelyingParty,
  removePasskey,
  signInWithPasskey,
} from '../../services/passkeys.js';
import type { SignedIn } from '../../services/sign-in.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { CANNOT_SIGN_IN, type Words } from '../views/sign-in-pages.js';

/** Everything a passkey route needs from the pages' plugin. */
export interface PasskeyKit {
  deps: RouteDeps;
  party: RelyingParty;
  /** The POST options of the pages (cross-site refusal, CSRF token) with a larger body limit. */
  post: RouteShorthandOptions;
  signedIn: (request: FastifyRequest) => Promise<SignedIn | undefined>;
  language: (request: FastifyRequest, reply: FastifyReply) => PageLanguage;
  /** Counts a ceremony's start against the client's hourly budget; the seconds to wait when over it. */
  overBudget: (request: FastifyRequest) => Promise<number | undefined>;
  /** Sets the session cookie of a sign-in and says where the browser goes next. */
  signInTo: (request: FastifyRequest, reply: FastifyReply, token: string) => string;
}

/** The browser half of WebAuthn: the library's own bundle, served from this site (the CSP allows only 'self'). */
const LIBRARY = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '../dist/bundle/index.umd.min.js'),
  'utf8',
);
const SCRIPT = readFileSync(new URL('../../../assets/passkeys.js', import.meta.url), 'utf8');

/** A passkey credential's JSON with room to spare (a registration is about 1.5 KB). */
const CREDENTIAL_BODY_LIMIT = 16 * 1024;

const TEXTS = {
  invalid: {
    de: 'Dieser Passkey konnte nicht geprüft werden. Versuchen Sie es noch einmal oder melden Sie sich mit einem Code per E-Mail an.',
    en: 'This passkey could not be verified. Try again, or sign in with a code by e-mail.',
  },
  refused: CANNOT_SIGN_IN,
  full: {
    de: 'Dieses Konto hat schon die größtmögliche Zahl an Passkeys. Entfernen Sie zuerst einen.',
    en: 'This account already has as many passkeys as it may. Remove one first.',
  },
  known: {
    de: 'Dieser Passkey gehört schon zu einem Konto.',
    en: 'This passkey already belongs to an account.',
  },
  signedOut: {
    de: 'Sie sind nicht mehr angemeldet. Melden Sie sich an und versuchen Sie es noch einmal.',
    en: 'You are no longer signed in. Sign in and try again.',
  },
  tooMany: {
    de: 'Zu viele Versuche in der letzten Stunde. Versuchen Sie es später noch einmal.',
    en: 'Too many attempts in the last hour. Try again later.',
  },
} satisfies Record<string, Words>;

export function passkeyRoutes(app: Api, kit: PasskeyKit): void {
  const { deps, party } = kit;
  const fail = (request: FastifyRequest, reply: FastifyReply, status: number, error: keyof typeof TEXTS) =>
    reply
      .code(status)
      .header('cache-control', 'no-store')
      .send({ error: `passkey_${error}`, message: TEXTS[error][kit.language(request, reply)] });
  const json = (reply: FastifyReply, body: unknown) => reply.code(200).header('cache-control', 'no-store').send(body);
  const post = { ...kit.post, bodyLimit: CREDENTIAL_BODY_LIMIT };
  const body = (request: FastifyRequest) => (request.body ?? {}) as { credential?: unknown; name?: unknown };

  for (const [path, source] of [
    ['/assets/webauthn.js', LIBRARY],
    ['/assets/passkeys.js', SCRIPT],
  ] as const) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(source),
    );
  }

  app.post('/signin/passkey/options', post, async (request, reply) => {
    const wait = await kit.overBudget(request);
    if (wait !== undefined) {
      request.log.warn({ sign_in: 'rate_limited', purpose: 'passkey' }, 'passkey sign-in refused: too many');
      reply.header('retry-after', String(wait));
      return fail(request, reply, 429, 'tooMany');
    }
    return json(reply, await passkeySignInOptions(deps.db, party, deps.now()));
  });

  app.post('/signin/passkey', post, async (request, reply) => {
    const start = { db: deps.db, now: deps.now(), userAgent: request.headers['user-agent'] };
    const outcome = await signInWithPasskey(start, party, body(request).credential);
    request.log.info(
      {
        sign_in: outcome.outcome === 'signed-in' ? 'passkey_signed_in' : `passkey_${outcome.outcome}`,
        ...('accountId' in outcome && { account_id: outcome.accountId }),
        ...('detail' in outcome && { detail: outcome.detail }),
      },
      'passkey sign-in',
    );
    switch (outcome.outcome) {
      case 'signed-in':
        return json(reply, { location: kit.signInTo(request, reply, outcome.token) });
      case 'refused':
        return fail(request, reply, 403, 'refused');
      default:
        return fail(request, reply, 400, 'invalid');
    }
  });

  app.post('/account/passkeys/options', post, async (request, reply) => {
    const current = await kit.signedIn(request);
    if (!current) return fail(request, reply, 401, 'signedOut');
    const wait = await kit.overBudget(request);
    if (wait !== undefined) {
      reply.header('retry-after', String(wait));
      return fail(request, reply, 429, 'tooMany');
    }
    return json(reply, await passkeyRegistrationOptions(deps.db, party, current.account, deps.now()));
  });

  app.post('/account/passkeys', post, async (request, reply) => {
    const current = await kit.signedIn(request);
    if (!current) return fail(request, reply, 401, 'signedOut');
    const { credential, name } = body(request);
    const given = typeof name === 'string' ? name.slice(0, MAX_PASSKEY_NAME) : '';
    const added = await addPasskey(deps.db, party, current.account, credential, given, deps.now());
    request.log.info(
      {
        sign_in: `passkey_${added.outcome}`,
        account_id: current.account.id,
        ...('detail' in added && { detail: added.detail }),
      },
      'passkey registration',
    );
    if (added.outcome === 'added') return json(reply, { location: '/account?added=passkey' });
    return fail(request, reply, added.outcome === 'invalid' ? 400 : 409, added.outcome);
  });

  app.post('/account/passkeys/remove', kit.post, async (request, reply) => {
    const current = await kit.signedIn(request);
    if (!current) return reply.code(303).header('location', '/signin').send();
    const id = (request.body as { passkey?: unknown } | undefined)?.passkey;
    if (typeof id === 'string') await removePasskey(deps.db, current.account.id, id, deps.now());
    return reply.code(303).header('location', '/account').send();
  });
}
