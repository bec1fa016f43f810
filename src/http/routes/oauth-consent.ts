/**
 * The authorization server's interaction pages (issue 31): who is signing in is the site's own
 * sign-in (a person without a session goes to /signin and comes back), and the consent page asks
 * the person which scopes to grant. Registered inside signInPageRoutes, so the pages share its
 * cookies, CSRF tokens, cross-site refusal, languages and look.
 */
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { API_SCOPES, isApiScope, OIDC_SCOPES, type Words } from '../../domain/oauth-scopes.js';
import { clientDeveloper } from '../../services/oauth-clients.js';
import type { SignedIn } from '../../services/sign-in.js';
import type { OauthServer } from '../oauth-server.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { type ConsentView, consentPage } from '../views/consent-page.js';
import type { PageContext, PageNotice } from '../views/sign-in-pages.js';

export interface ConsentKit {
  deps: RouteDeps;
  server: () => Promise<OauthServer>;
  post: RouteShorthandOptions;
  signedIn: (request: FastifyRequest) => Promise<SignedIn | undefined>;
  context: (request: FastifyRequest, reply: FastifyReply, path: string) => PageContext;
  sendPage: (reply: FastifyReply, status: number, page: string, formTarget?: string) => FastifyReply;
  /** A page that says what went wrong, with a way on. */
  refuse: (request: FastifyRequest, reply: FastifyReply, status: number, shown: PageNotice) => FastifyReply;
  /** Sends the browser to /signin, to come back to `path` after signing in. */
  signInFirst: (request: FastifyRequest, reply: FastifyReply, path: string) => FastifyReply;
}

const EXPIRED: PageNotice = {
  kind: 'error',
  de: 'Diese Anfrage ist abgelaufen oder unbekannt. Gehen Sie zurück zur App und beginnen Sie neu.',
  en: 'This request has expired or is unknown. Go back to the app and start again.',
};

type Details = Awaited<ReturnType<OauthServer['provider']['interactionDetails']>>;

const wordsOf = (scope: string): Words | undefined =>
  isApiScope(scope) ? API_SCOPES[scope] : (OIDC_SCOPES as Record<string, Words>)[scope];

/** The interaction of this browser (its cookie) with this uid, or undefined when there is none. */
async function interaction(kit: ConsentKit, request: FastifyRequest, reply: FastifyReply, uid: string) {
  const { provider } = await kit.server();
  try {
    const details = await provider.interactionDetails(request.raw, reply.raw);
    return details.uid === uid ? { provider, details } : undefined;
  } catch {
    // SessionNotFound: no interaction cookie, or it expired (10 minutes).
    return undefined;
  }
}

/**
 * The CSP source of where the consent form's answer ends (the app's redirect URI, registered and
 * matched exactly by the library): its origin, or its scheme for an app's own scheme. Nothing for
 * anything that is not a plain URL.
 */
export function formTargetOf(redirectUri: string): string | undefined {
  try {
    const url = new URL(redirectUri);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}

export function oauthConsentRoutes(app: Api, kit: ConsentKit): void {
  const finish = async (
    request: FastifyRequest,
    reply: FastifyReply,
    result: Record<string, unknown>,
    merge = false,
  ) => {
    const { provider } = await kit.server();
    const to = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
    return reply.code(303).header('location', to).header('cache-control', 'no-store').send();
  };

  app.get<{ Params: { uid: string } }>(
    '/oauth/interaction/:uid',
    { schema: { hide: true } },
    async (request, reply) => {
      const { uid } = request.params;
      const found = await interaction(kit, request, reply, uid);
      if (!found) return kit.refuse(request, reply, 400, EXPIRED);
      const { details } = found;
      const current = await kit.signedIn(request);
      if (!current) return kit.signInFirst(request, reply, `/oauth/interaction/${uid}`);
      if (details.prompt.name === 'login') {
        return finish(request, reply, { login: { accountId: current.account.id } });
      }
      if (details.session?.accountId !== current.account.id) {
        // Signed in as someone else than the authorization began with: start the login again.
        return finish(request, reply, { login: { accountId: current.account.id } });
      }
      const view = await consentView(kit, found, current);
      const page = consentPage(kit.context(request, reply, request.url.split('?')[0] as string), view);
      return kit.sendPage(reply, 200, page, formTargetOf(String(details.params.redirect_uri ?? '')));
    },
  );

  app.post<{ Params: { uid: string } }>('/oauth/interaction/:uid/consent', kit.post, async (request, reply) => {
    const { uid } = request.params;
    const found = await interaction(kit, request, reply, uid);
    if (!found) return kit.refuse(request, reply, 400, EXPIRED);
    const { provider, details } = found;
    const current = await kit.signedIn(request);
    if (!current || details.session?.accountId !== current.account.id) {
      return kit.signInFirst(request, reply, `/oauth/interaction/${uid}`);
    }
    const body = (request.body ?? {}) as { decision?: unknown; scope?: unknown };
    if (body.decision !== 'allow') {
      request.log.info({ oauth: 'consent_denied', client_id: details.params.client_id }, 'consent denied');
      return finish(request, reply, { error: 'access_denied', error_description: 'The person did not allow it.' });
    }
    const chosen = new Set(
      (Array.isArray(body.scope) ? body.scope : [body.scope]).filter((s) => typeof s === 'string'),
    );
    const prompt = details.prompt.details as {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId: current.account.id, clientId: details.params.client_id as string }))
      : new provider.Grant({ accountId: current.account.id, clientId: details.params.client_id as string });
    const split = (scopes: string[]) => {
      const given = scopes.filter((s) => chosen.has(s) || s === 'openid');
      return { given: given.join(' '), refused: scopes.filter((s) => !given.includes(s)).join(' ') };
    };
    if (prompt.missingOIDCScope) {
      const { given, refused } = split(prompt.missingOIDCScope);
      if (given) grant.addOIDCScope(given);
      if (refused) grant.rejectOIDCScope(refused);
    }
    for (const [indicator, scopes] of Object.entries(prompt.missingResourceScopes ?? {})) {
      const { given, refused } = split(scopes);
      if (given) grant.addResourceScope(indicator, given);
      if (refused) grant.rejectResourceScope(indicator, refused);
    }
    const grantId = await grant.save();
    request.log.info(
      { oauth: 'consent_given', client_id: details.params.client_id, account_id: current.account.id },
      'consent given',
    );
    return finish(request, reply, { consent: { grantId } }, true);
  });
}

async function consentView(
  kit: ConsentKit,
  found: { provider: OauthServer['provider']; details: Details },
  current: SignedIn,
): Promise<ConsentView> {
  const { provider, details } = found;
  const clientId = details.params.client_id as string;
  const client = await provider.Client.find(clientId);
  const prompt = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const asked = new Set<string>([
    ...(prompt.missingOIDCScope ?? []),
    ...Object.values(prompt.missingResourceScopes ?? {}).flat(),
  ]);
  const scopes = [...asked]
    .map((scope) => ({ scope, words: wordsOf(scope), fixed: scope === 'openid' }))
    .filter((item): item is { scope: string; words: Words; fixed: boolean } => item.words !== undefined);
  const redirect = String(details.params.redirect_uri ?? '');
  let returnsTo = redirect;
  try {
    const url = new URL(redirect);
    returnsTo = url.protocol.startsWith('http') ? url.origin : `${url.protocol}//`;
  } catch {
    // A redirect URI the client registered is always a URL; shown as it is otherwise.
  }
  return {
    uid: details.uid,
    client: { name: client?.clientName ?? clientId },
    developer: await clientDeveloper(kit.deps.db, clientId),
    person: { name: current.account.name, email: current.account.email },
    scopes,
    returnsTo,
  };
}
