import cookie from '@fastify/cookie';
import formBody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  confirmDraft,
  type DraftDecision,
  type DraftSettings,
  declineDraft,
  draftOfToken,
} from '../../services/drafts.js';
import { ApiError } from '../../services/errors.js';
import { QuotaExceeded } from '../../services/quotas.js';
import { sessionOfToken } from '../../services/sign-in.js';
import { sendHtmlPage } from '../html-page.js';
import type { Api, RouteDeps } from '../route-deps.js';
import {
  decidedPage,
  otherAccountPage,
  type PageNotice,
  pendingPage,
  refusedPage,
  signInFirstPage,
  signInPathTo,
  unknownPage,
} from '../views/confirm-page.js';
import { isCrossSite } from './developers.js';
import { COOKIES } from './sign-in-pages.js';

// As /developers: no scripts at all, inline styles only, the form posts only here.
const CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** decision=confirm or decline is all the form sends. */
const FORM_BODY_LIMIT = 1024;

/**
 * The page, never cached, not indexed. Referrer-Policy same-origin (sendHtmlPage): the token in the
 * URL is the secret and must not leave in a Referer for another site; not no-referrer, under which
 * browsers post the page's own form with `Origin: null`, which isCrossSite refuses.
 */
const sendPage = (reply: FastifyReply, status: number, page: string) =>
  sendHtmlPage(reply, status, page, CSP, { 'x-robots-tag': 'noindex' });

const CROSS_SITE: PageNotice = {
  kind: 'error',
  de: 'Diese Anfrage kam von einer anderen Website; es ist nichts geschehen. Entscheiden Sie hier auf dieser Seite.',
  en: 'This request came from another website, so nothing was done. Decide here, on this page.',
};

const FAILED: PageNotice = {
  kind: 'error',
  de: 'Das ging gerade auf unserer Seite schief; es ist nichts geschehen. Versuchen Sie es gleich noch einmal.',
  en: 'Something went wrong on our side, so nothing was done. Try again in a moment.',
};

const BUSY: PageNotice = {
  kind: 'info',
  de: 'Die Bestätigung läuft gerade (in einem anderen Tab?). Laden Sie die Seite gleich neu.',
  en: 'The confirmation is running right now (in another tab?). Reload the page in a moment.',
};

/** The operation's refusal, said plainly: its message and suggestion, never a bare 500. */
function refusal(error: unknown): { status: number; notice: PageNotice } | undefined {
  const said = (status: number, detail: string) => ({
    status,
    notice: {
      kind: 'error' as const,
      de: 'Das ging gerade nicht; es ist nichts geschehen. Der Grund (englisch):',
      en: 'That did not work just now; nothing was done. The reason:',
      detail,
    },
  });
  if (error instanceof ApiError) return said(error.status, `${error.message} ${error.suggestion}`);
  if (error instanceof QuotaExceeded) {
    return said(429, `The account reached its hourly limit; try again in ${error.retryAfterSeconds} seconds.`);
  }
  return undefined;
}

/**
 * The page of a draft's confirmation_url (GET), and its two buttons (POST): no key, but the token
 * in the path and a signed-in session of the draft's own account (issue 31), so that an agent
 * holding the URL alone can neither confirm nor read the draft. A plugin of its own so that only
 * here form bodies are parsed.
 */
export async function confirmPageRoutes(app: Api, options: { deps: RouteDeps; settings: DraftSettings }) {
  const { deps, settings } = options;
  await app.register(cookie);
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });

  /**
   * For a browser that is not the draft's account, the page of the 403 (and, when nobody is signed
   * in, where to sign in); undefined when it is the draft's account.
   */
  const notTheOwner = async (request: FastifyRequest, accountId: string) => {
    const path = request.url.split('?')[0] ?? '/';
    const current = await sessionOfToken(deps.db, request.cookies[COOKIES.session], deps.now());
    if (!current) return { page: signInFirstPage(path), signIn: signInPathTo(path) };
    if (current.account.id !== accountId) return { page: otherAccountPage(), signIn: undefined };
    return undefined;
  };

  const show = (reply: FastifyReply, decision: DraftDecision, action: string) => {
    switch (decision.outcome) {
      case 'unknown':
        return sendPage(reply, 404, unknownPage());
      case 'busy':
        return sendPage(reply, 409, pendingPage(decision.draft, action, BUSY));
      case 'refused': {
        const refused = refusal(decision.error);
        if (!refused) {
          // Not the operation's refusal (a lost claim, a busy database): the page, not a JSON 500.
          reply.log.error({ err: decision.error }, 'draft confirmation failed');
          return sendPage(reply, 503, pendingPage(decision.draft, action, FAILED));
        }
        return sendPage(reply, refused.status, pendingPage(decision.draft, action, refused.notice));
      }
      case 'done': {
        const { draft } = decision;
        if (draft.status === 'pending') return sendPage(reply, 200, pendingPage(draft, action));
        return sendPage(reply, draft.status === 'expired' ? 410 : 200, decidedPage(draft));
      }
    }
  };

  app.get('/confirm/:token', { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params as { token: string };
    const found = await draftOfToken(deps.db, token, deps.now());
    if (!found) return show(reply, { outcome: 'unknown' }, request.url);
    const refused = await notTheOwner(request, found.row.account_id);
    // Not signed in: to the sign-in, which leads back here; no-store, as the page (sendHtmlPage).
    if (refused?.signIn)
      return reply.code(303).header('location', refused.signIn).header('cache-control', 'no-store').send();
    if (refused) return sendPage(reply, 403, refused.page);
    return show(reply, { outcome: 'done', draft: found.draft }, request.url);
  });

  app.post(
    '/confirm/:token',
    {
      schema: { hide: true },
      bodyLimit: FORM_BODY_LIMIT,
      // Before the body is read: a post from another site is refused whatever it says.
      onRequest: async (request, reply) => {
        if (!isCrossSite(request)) return;
        const { token } = request.params as { token: string };
        const found = await draftOfToken(deps.db, token, deps.now());
        if (!found) return sendPage(reply, 403, unknownPage());
        // Someone else's draft, or nobody signed in (a cross-site post carries no Lax cookie): the
        // refusal alone, nothing of the draft.
        if (await notTheOwner(request, found.row.account_id)) return sendPage(reply, 403, refusedPage(CROSS_SITE));
        const { draft } = found;
        const page =
          draft.status === 'pending' ? pendingPage(draft, request.url, CROSS_SITE) : decidedPage(draft, CROSS_SITE);
        return sendPage(reply, 403, page);
      },
    },
    async (request, reply) => {
      const { token } = request.params as { token: string };
      // The page's form is all that may post here: no JSON from scripts.
      if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return sendPage(reply, 415, unknownPage());
      }
      const now = deps.now();
      const found = await draftOfToken(deps.db, token, now);
      if (!found) return sendPage(reply, 404, unknownPage());
      const refused = await notTheOwner(request, found.row.account_id);
      if (refused) return sendPage(reply, 403, refused.page);
      const decision = (request.body as { decision?: unknown } | null)?.decision;
      if (decision === 'confirm') return show(reply, await confirmDraft(deps.db, token, now, settings), request.url);
      if (decision === 'decline') return show(reply, await declineDraft(deps.db, token, now), request.url);
      const choose: PageNotice = {
        kind: 'error',
        de: 'Bitte wählen Sie „Bestätigen“ oder „Ablehnen“.',
        en: 'Please choose Confirm or Decline.',
      };
      const { draft } = found;
      return sendPage(
        reply,
        400,
        draft.status === 'pending' ? pendingPage(draft, request.url, choose) : decidedPage(draft),
      );
    },
  );
}
