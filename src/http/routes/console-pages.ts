/**
 * The operators' console (issue 33): a signed-in account with an operator's role. Registered
 * inside signInPageRoutes, so the pages share its cookies, CSRF tokens (every form), cross-site
 * refusal and error pages. A console session ends after CONSOLE_IDLE_MINUTES without a request;
 * destructive actions (suspend, restore, erase, remove an operator) need a sign-in of the last
 * REAUTH_MINUTES. Signed out (or ended): to sign-in, and back here after it. Not an operator, or a
 * page above the role: 403, also by URL. No script at all; the page's one style allowed by its hash.
 * Every decision goes through the same services as the admin command, audited in its transaction.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { CODE_TTL_MINUTES } from '../../domain/sign-in.js';
import type { Mailer } from '../../mail/mailer.js';
import { MODERATION_ACTIONS, MODERATION_GROUNDS } from '../../schemas/notices.js';
import { eraseAccount } from '../../services/account-data.js';
import { restoreAccount, suspendAccount } from '../../services/account-moderation.js';
import { decideClaim } from '../../services/claims.js';
import {
  accountFile,
  appealFile,
  appeals,
  auditPage,
  CONSOLE_IDLE_MINUTES,
  claimFile,
  disputedClaims,
  findAccounts,
  keyRequests,
  mayDecideAppeal,
  type OperatorRole,
  operatorOf,
  queueFigures,
  REAUTH_MINUTES,
  readClaimConversation,
  readReportedConversation,
  reportFile,
  reports,
  verificationFile,
  verifications,
} from '../../services/console.js';
import { figuresOf30Days } from '../../services/console-figures.js';
import { ApiError } from '../../services/errors.js';
import {
  approveKeyRequest,
  KeyRequestProblem,
  MAX_DECISION_REASON_LENGTH,
  rejectKeyRequest,
} from '../../services/key-requests.js';
import { decideAppeal, decideReport } from '../../services/notices.js';
import {
  type Actor,
  addOperator,
  listOperators,
  OperatorError,
  removeOperator,
  roleAllows,
} from '../../services/operators.js';
import { consoleSessionOfToken, endSession, type SignedIn } from '../../services/sign-in.js';
import { decideVerification, VerificationProblem } from '../../services/verifications.js';
import { sendHtmlPage } from '../html-page.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { COOKIES } from '../site-cookies.js';
import { chartsSection } from '../views/console-charts.js';
import {
  accountPage,
  accountsPage,
  appealPage,
  appealsPage,
  auditLogPage,
  claimPage,
  claimsPage,
  keyRequestsPage,
  operatorsPage,
  overviewPage,
  type Reauth,
  reportPage,
  reportsPage,
  verificationPage,
  verificationsPage,
} from '../views/console-pages.js';
import { messagePage, type PageContext, type PageNotice, STYLE_HASH, type Words } from '../views/sign-in-pages.js';

export interface ConsoleRouteOptions {
  deps: RouteDeps;
  mailer: Mailer;
  baseUrl: string;
  /** The sign-in plugin's options for a form post: cross-site refusal and the CSRF check. */
  post: RouteShorthandOptions;
  context: (request: FastifyRequest, reply: FastifyReply, path: string) => PageContext;
  cookieOptions: (request: FastifyRequest, maxAgeSeconds?: number) => CookieSerializeOptions;
}

const CONSOLE_CSP = `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

/** What a console page may say after a decision (Post/Redirect/Get: `?done=<what>&id=<id>`). */
const DONE: Record<string, Words> = {
  approved: { de: 'Freigegeben; der Schlüssel ist unterwegs:', en: 'Approved; the key is on its way:' },
  rejected: { de: 'Abgelehnt, die Begründung ist unterwegs:', en: 'Rejected, the reason is on its way:' },
  verified: { de: 'Verifizierung bestätigt:', en: 'Verification approved:' },
  refused: { de: 'Verifizierung abgelehnt:', en: 'Verification rejected:' },
  decided: { de: 'Entschieden:', en: 'Decided:' },
  suspended: { de: 'Konto gesperrt:', en: 'Account suspended:' },
  restored: { de: 'Sperre aufgehoben:', en: 'Suspension lifted:' },
  erased: { de: 'Konto gelöscht:', en: 'Account erased:' },
  added: { de: 'Rolle vergeben:', en: 'Role given:' },
  removed: { de: 'Rolle entzogen:', en: 'Role removed:' },
};

const SHOWN_ID = /^[a-z]{2,4}_[A-Za-z0-9]{1,40}$|^[^\s@<>]{1,100}@[^\s@<>]{1,100}$/;

/** The notice of a `?done=` redirect, when it is one the console sends. */
function doneNotice(request: FastifyRequest): PageNotice | undefined {
  const query = request.query as { done?: unknown; id?: unknown };
  const words = typeof query.done === 'string' ? DONE[query.done] : undefined;
  const id = typeof query.id === 'string' && SHOWN_ID.test(query.id) ? query.id : '';
  return words && { kind: 'ok', de: `${words.de} ${id}`, en: `${words.en} ${id}` };
}

/**
 * A refusal of the services (not pending any more, decided meanwhile, four eyes, a reason missing)
 * as the page's notice; anything else (the database, the mail server) is thrown on to the
 * plugin's error page. The services word their refusals in English; the page says so in German.
 */
function refusalOf(error: unknown): { status: number; shown: PageNotice } | undefined {
  const known =
    error instanceof OperatorError ||
    error instanceof KeyRequestProblem ||
    error instanceof VerificationProblem ||
    error instanceof ApiError;
  if (!known) return undefined;
  const text = error.message;
  return {
    status: error instanceof ApiError ? error.status : 409,
    shown: { kind: 'error', de: 'Nicht ausgeführt (Meldung auf Englisch):', en: 'Not done:', english: text },
  };
}

const MISSING_REASON: PageNotice = {
  kind: 'error',
  de: 'Bitte eine Begründung angeben (höchstens 1000 Zeichen); es ist nichts geschehen.',
  en: 'Give a reason (at most 1,000 characters); nothing was done.',
};

/** A reason from the form: trimmed, 1 to 1000 characters, or undefined. */
function reasonOf(body: unknown, name = 'reason'): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\r\n/g, '\n').trim();
  return text.length >= 1 && text.length <= MAX_DECISION_REASON_LENGTH ? text : undefined;
}

const field = (body: unknown, name: string): string | undefined => {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

/** A console path a re-authentication may lead back to. */
export const CONSOLE_PATH = /^\/console(\/[a-z-]{1,40}(\/[A-Za-z0-9_-]{1,60})?)?$/;

export function consoleRoutes(app: Api, options: ConsoleRouteOptions): void {
  const { deps, post, context, cookieOptions } = options;

  const send = (reply: FastifyReply, status: number, page: string) =>
    sendHtmlPage(reply, status, page, CONSOLE_CSP, {
      'x-robots-tag': 'noindex',
      vary: 'Accept-Language, Cookie',
      'cache-control': 'no-store',
    });
  const see = (reply: FastifyReply, location: string) =>
    reply.code(303).header('location', location).header('cache-control', 'no-store').send();
  /** The page's own path: after an action (POST .../decide), the item's page, so the language link leads somewhere. */
  const pathOf = (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '/console';
    return request.method === 'POST'
      ? path.replace(/\/(approve|reject|decide|read|suspend|restore|erase|add|remove)$/, '')
      : path;
  };
  const page = (request: FastifyRequest, reply: FastifyReply) => context(request, reply, pathOf(request));

  interface Operator {
    role: OperatorRole;
    actor: Actor;
    signedIn: SignedIn;
  }

  /** The operator behind the request, or the answer already sent (to sign-in, or 403). */
  const operatorIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    needed: OperatorRole,
  ): Promise<Operator | undefined> => {
    const path = request.method === 'GET' ? pathOf(request) : '/console';
    const current = await consoleSessionOfToken(
      deps.db,
      request.cookies[COOKIES.session],
      deps.now(),
      CONSOLE_IDLE_MINUTES * 60_000,
    );
    if (!current || current === 'ended') {
      if (current === 'ended') reply.clearCookie(COOKIES.session, cookieOptions(request));
      reply.setCookie(COOKIES.next, path, cookieOptions(request, CODE_TTL_MINUTES * 60));
      await see(reply, '/signin');
      return undefined;
    }
    const operator = await operatorOf(deps.db, current.account.id);
    if (!operator || !roleAllows(operator.role, needed)) {
      const shown = messagePage(
        page(request, reply),
        { de: 'Kein Zugang', en: 'No access' },
        {
          kind: 'error',
          de: operator
            ? 'Diese Seite ist einer höheren Rolle vorbehalten.'
            : 'Die Konsole ist den Betreibern vorbehalten.',
          en: operator ? 'This page needs a higher role.' : 'The console is for the people who run the platform.',
        },
        operator
          ? { href: '/console', words: { de: 'Zur Übersicht', en: 'To the overview' } }
          : { href: '/account', words: { de: 'Zu meinem Konto', en: 'To my account' } },
      );
      await send(reply, 403, shown);
      return undefined;
    }
    return { role: operator.role, actor: { accountId: current.account.id, role: operator.role }, signedIn: current };
  };

  /** Whether the operator signed in recently enough for a destructive action. */
  const reauthOf = (operator: Operator, next: string): Reauth => ({
    recent: deps.now().getTime() - Date.parse(operator.signedIn.session.created_at) < REAUTH_MINUTES * 60_000,
    minutes: REAUTH_MINUTES,
    next,
  });

  const write = () => ({ db: deps.db, now: deps.now(), claim: null });

  /** A GET page of the console for `role`. */
  const view = (
    path: string,
    role: OperatorRole,
    render: (request: FastifyRequest, reply: FastifyReply, operator: Operator) => Promise<unknown>,
  ) =>
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      const operator = await operatorIn(request, reply, role);
      if (!operator) return reply;
      return render(request, reply, operator);
    });

  /** What an action answers when it does not go on: the page again with what happened, and its status. */
  type Refuse = (status: number, shown: PageNotice) => Promise<{ status: number; page: string }>;
  type Again = (
    request: FastifyRequest,
    reply: FastifyReply,
    operator: Operator,
    shown?: PageNotice,
  ) => Promise<string>;

  /**
   * A POST action of the console for `role`: `act` returns where to go (Post/Redirect/Get), or
   * `refuse(status, notice)`: the page `again` with the notice. A refusal of the services is shown
   * the same way (409, or the ApiError's status); anything else goes to the plugin's error page.
   */
  const action = (
    path: string,
    role: OperatorRole,
    act: (
      request: FastifyRequest,
      reply: FastifyReply,
      operator: Operator,
      refuse: Refuse,
    ) => Promise<string | { status: number; page: string }>,
    again: Again,
  ) =>
    app.post(path, post, async (request, reply) => {
      const operator = await operatorIn(request, reply, role);
      if (!operator) return reply;
      const refuse: Refuse = async (status, shown) => ({
        status,
        page: await again(request, reply, operator, shown),
      });
      try {
        const outcome = await act(request, reply, operator, refuse);
        if (typeof outcome === 'string') return see(reply, outcome);
        return send(reply, outcome.status, outcome.page);
      } catch (error) {
        const refused = refusalOf(error);
        if (!refused) throw error;
        request.log.info({ console: 'refused', path: pathOf(request) }, 'console action refused');
        return send(reply, refused.status, await again(request, reply, operator, refused.shown));
      }
    });

  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  /** Where to go after an action: the list, with what was done. */
  const done = (list: string, what: keyof typeof DONE, id: string) =>
    `${list}?done=${what}&id=${encodeURIComponent(id)}`;
  /** A destructive action needs a sign-in of the last REAUTH_MINUTES. */
  const STALE_SIGN_IN: PageNotice = {
    kind: 'error',
    de: `Dafür bitte zuerst erneut anmelden (innerhalb von ${REAUTH_MINUTES} Minuten); es ist nichts geschehen.`,
    en: `Sign in again first (within ${REAUTH_MINUTES} minutes); nothing was done.`,
  };
  const recent = (operator: Operator) => reauthOf(operator, '').recent;
  const notFound = (request: FastifyRequest, reply: FastifyReply, back: string) =>
    send(
      reply,
      404,
      messagePage(
        page(request, reply),
        { de: 'Nicht gefunden', en: 'Not found' },
        { kind: 'error', de: 'Das gibt es nicht (mehr).', en: 'This does not exist (any more).' },
        { href: back, words: { de: 'Zurück zur Liste', en: 'Back to the list' } },
      ),
    );

  /**
   * A queue of the console: its list at `list`, each item's page at `list/:id` (404 when there is
   * none), and what an action on an item shows again: the item's page with the notice (and the
   * form as it was sent), or the list when the item is gone.
   */
  const queue = (
    list: string,
    role: OperatorRole,
    listPage: Again,
    itemPage: (
      request: FastifyRequest,
      reply: FastifyReply,
      operator: Operator,
      shown?: PageNotice,
    ) => Promise<string | undefined>,
  ): Again => {
    view(list, role, async (request, reply, operator) =>
      send(reply, 200, await listPage(request, reply, operator, doneNotice(request))),
    );
    view(`${list}/:id`, role, async (request, reply, operator) => {
      const shown = await itemPage(request, reply, operator, doneNotice(request));
      return shown ? send(reply, 200, shown) : notFound(request, reply, list);
    });
    return async (request, reply, operator, shown) =>
      (await itemPage(request, reply, operator, shown)) ?? listPage(request, reply, operator, shown);
  };

  // ------------------------------------------------------------ overview

  view('/console', 'support', async (request, reply, operator) => {
    const [queues, figures] = await Promise.all([
      queueFigures(deps.db, operator.role),
      figuresOf30Days(deps.db, deps.now()),
    ]);
    const shownPage = page(request, reply);
    return send(
      reply,
      200,
      overviewPage(shownPage, operator.role, queues, deps.now(), chartsSection(shownPage.language, figures)),
    );
  });

  // ------------------------------------------------------------ key requests

  const keyRequestList: Again = async (request, reply, operator, shown) =>
    keyRequestsPage(page(request, reply), operator.role, await keyRequests(deps.db), deps.now(), shown);
  view('/console/key-requests', 'support', async (request, reply, operator) =>
    send(reply, 200, await keyRequestList(request, reply, operator, doneNotice(request))),
  );
  const keyMail = () => ({
    db: deps.db,
    now: deps.now(),
    mailer: options.mailer,
    baseUrl: options.baseUrl,
    perMinute: deps.limits.developer,
    anonymousPerMinute: deps.limits.anonymous,
  });
  action(
    '/console/key-requests/:id/approve',
    'support',
    async (request, _reply, operator) => {
      await approveKeyRequest(keyMail(), idOf(request), operator.actor);
      return done('/console/key-requests', 'approved', idOf(request));
    },
    keyRequestList,
  );
  action(
    '/console/key-requests/:id/reject',
    'support',
    async (request, _reply, operator, refuse) => {
      const reason = reasonOf(request.body);
      if (!reason) return refuse(400, MISSING_REASON);
      const { delivery } = await rejectKeyRequest(keyMail(), idOf(request), reason, operator.actor);
      if ('failed' in delivery) {
        return refuse(200, {
          kind: 'error',
          de: `Abgelehnt, aber die Begründung konnte nicht gesendet werden (${delivery.failed}).`,
          en: `Rejected, but the reason could not be sent (${delivery.failed}).`,
        });
      }
      return done('/console/key-requests', 'rejected', idOf(request));
    },
    keyRequestList,
  );

  // ------------------------------------------------------------ verifications

  const verificationAgain = queue(
    '/console/verifications',
    'support',
    async (request, reply, operator, shown) =>
      verificationsPage(page(request, reply), operator.role, await verifications(deps.db), deps.now(), shown),
    async (request, reply, operator, shown) => {
      const file = await verificationFile(deps.db, idOf(request));
      if (!file) return undefined;
      const { helper } = file;
      return verificationPage(
        page(request, reply),
        operator.role,
        {
          verification: file.verification,
          helper: helper && {
            display_name: helper.display_name,
            bio: helper.bio,
            categories: helper.categories,
            reliability_score: helper.reliability.reliability_score,
            completed_jobs: helper.reliability.completed_jobs,
            cancellation_rate: helper.reliability.cancellation_rate,
            available: helper.available,
          },
          history: file.history,
        },
        shown,
      );
    },
  );
  action(
    '/console/verifications/:id/approve',
    'support',
    async (request, _reply, operator) => {
      await decideVerification(write(), idOf(request), 'approved', null, operator.actor);
      return done('/console/verifications', 'verified', idOf(request));
    },
    verificationAgain,
  );
  action(
    '/console/verifications/:id/reject',
    'support',
    async (request, _reply, operator, refuse) => {
      const reason = reasonOf(request.body);
      if (!reason) return refuse(400, MISSING_REASON);
      await decideVerification(write(), idOf(request), 'rejected', reason, operator.actor);
      return done('/console/verifications', 'refused', idOf(request));
    },
    verificationAgain,
  );

  // ------------------------------------------------------------ DSA reports

  /** A report's page; after a decision that did not go through, with the form as it was sent. */
  const reportScreen = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operator: Operator,
    shown?: PageNotice,
    conversation?: Parameters<typeof reportPage>[3]['conversation'],
  ): Promise<string | undefined> => {
    const file = await reportFile(deps.db, idOf(request));
    const body = request.body;
    const values = body
      ? { action: field(body, 'action'), ground: field(body, 'ground'), explanation: field(body, 'explanation') }
      : undefined;
    return file && reportPage(page(request, reply), operator.role, file, { conversation, values }, shown);
  };
  const reportAgain = queue(
    '/console/reports',
    'moderator',
    async (request, reply, operator, shown) =>
      reportsPage(page(request, reply), operator.role, await reports(deps.db), deps.now(), shown),
    reportScreen,
  );
  // Reading the conversation of a reported message: a POST, since the read is written to the audit log.
  action(
    '/console/reports/:id/read',
    'moderator',
    async (request, reply, operator) => {
      const conversation = await readReportedConversation(write(), idOf(request), operator.actor);
      const shown = conversation && (await reportScreen(request, reply, operator, undefined, conversation));
      return shown ? { status: 200, page: shown } : '/console/reports';
    },
    reportAgain,
  );
  action(
    '/console/reports/:id/decide',
    'moderator',
    async (request, _reply, operator, refuse) => {
      const explanation = reasonOf(request.body, 'explanation');
      const action = MODERATION_ACTIONS.find((known) => known === field(request.body, 'action'));
      const ground = MODERATION_GROUNDS.find((known) => known === field(request.body, 'ground'));
      if (!action || !ground) {
        return refuse(400, {
          kind: 'error',
          de: 'Bitte eine Maßnahme und eine Grundlage aus der Liste wählen; es ist nichts geschehen.',
          en: 'Choose an action and a ground from the lists; nothing was done.',
        });
      }
      if (action === 'suspend_account' && !recent(operator)) return refuse(403, STALE_SIGN_IN);
      if (!explanation) return refuse(400, MISSING_REASON);
      await decideReport(write(), idOf(request), { action, ground, explanation }, operator.actor);
      return done('/console/reports', 'decided', idOf(request));
    },
    reportAgain,
  );

  // ------------------------------------------------------------ appeals

  const appealAgain = queue(
    '/console/appeals',
    'moderator',
    async (request, reply, operator, shown) =>
      appealsPage(page(request, reply), operator.role, await appeals(deps.db), deps.now(), shown),
    async (request, reply, operator, shown) => {
      const file = await appealFile(deps.db, idOf(request));
      return (
        file && appealPage(page(request, reply), operator.role, file, mayDecideAppeal(file, operator.actor), shown)
      );
    },
  );
  action(
    '/console/appeals/:id/decide',
    'moderator',
    async (request, _reply, operator, refuse) => {
      const outcome = field(request.body, 'outcome');
      const explanation = reasonOf(request.body, 'explanation');
      if (outcome !== 'upheld' && outcome !== 'reversed') {
        return refuse(400, {
          kind: 'error',
          de: 'Bitte ein Ergebnis wählen; es ist nichts geschehen.',
          en: 'Choose an outcome; nothing was done.',
        });
      }
      if (!explanation) return refuse(400, MISSING_REASON);
      await decideAppeal(write(), idOf(request), outcome, explanation, operator.actor);
      return done('/console/appeals', 'decided', idOf(request));
    },
    appealAgain,
  );

  // ------------------------------------------------------------ claims

  /** A claim's page; after a decision that did not go through, with the form as it was sent. */
  const claimScreen = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operator: Operator,
    shown?: PageNotice,
    conversation?: Parameters<typeof claimPage>[5],
  ) => {
    const file = await claimFile(deps.db, idOf(request));
    const values = { amount_eur: field(request.body, 'amount_eur'), explanation: field(request.body, 'explanation') };
    return file && claimPage(page(request, reply), operator.role, file, values, shown, conversation);
  };
  const claimAgain = queue(
    '/console/claims',
    'moderator',
    async (request, reply, operator, shown) =>
      claimsPage(page(request, reply), operator.role, await disputedClaims(deps.db), deps.now(), shown),
    claimScreen,
  );
  // Reading the parties' conversation: a POST, since the read is written to the audit log.
  action(
    '/console/claims/:id/read',
    'moderator',
    async (request, reply, operator) => {
      const conversation = await readClaimConversation(write(), idOf(request), operator.actor);
      const shown = conversation && (await claimScreen(request, reply, operator, undefined, conversation));
      return shown ? { status: 200, page: shown } : '/console/claims';
    },
    claimAgain,
  );
  action(
    '/console/claims/:id/decide',
    'moderator',
    async (request, _reply, operator, refuse) => {
      const amount = (field(request.body, 'amount_eur') ?? '').trim().replace(',', '.');
      const explanation = reasonOf(request.body, 'explanation');
      if (!/^\d{1,7}(\.\d{1,2})?$/.test(amount)) {
        return refuse(400, {
          kind: 'error',
          de: 'Den Betrag bitte in Euro mit höchstens zwei Nachkommastellen angeben, z. B. 35,50; es ist nichts geschehen.',
          en: 'Give the amount in euros with at most two decimals, e.g. 35.50; nothing was done.',
        });
      }
      if (!explanation) return refuse(400, MISSING_REASON);
      const [euros = '0', cents = ''] = amount.split('.');
      const amountCents = Number(euros) * 100 + Number(cents.padEnd(2, '0'));
      await decideClaim(write(), idOf(request), { amountCents, explanation }, operator.actor);
      return done('/console/claims', 'decided', idOf(request));
    },
    claimAgain,
  );

  // ------------------------------------------------------------ accounts

  const accountAgain = queue(
    '/console/accounts',
    'support',
    async (request, reply, operator, shown) => {
      const asked = (request.query as { q?: unknown }).q;
      const text = typeof asked === 'string' ? asked.trim().slice(0, 200) : '';
      const rows = text ? await findAccounts(deps.db, text) : undefined;
      return accountsPage(page(request, reply), operator.role, text, rows, shown);
    },
    async (request, reply, operator, shown) => {
      const file = await accountFile(deps.db, idOf(request), deps.now());
      const path = `/console/accounts/${idOf(request)}`;
      return file && accountPage(page(request, reply), operator.role, file, reauthOf(operator, path), shown);
    },
  );
  /** A destructive action on an account: a recent sign-in and a reason, or the page again. */
  const accountAction = (
    path: string,
    role: OperatorRole,
    act: (
      operator: Operator,
      file: NonNullable<Awaited<ReturnType<typeof accountFile>>>,
      reason: string,
      body: unknown,
    ) => Promise<string>,
  ) =>
    action(
      path,
      role,
      async (request, _reply, operator, refuse) => {
        const file = await accountFile(deps.db, idOf(request), deps.now());
        if (!file) return '/console/accounts';
        if (!recent(operator)) return refuse(403, STALE_SIGN_IN);
        const reason = reasonOf(request.body);
        if (!reason) return refuse(400, MISSING_REASON);
        return act(operator, file, reason, request.body);
      },
      accountAgain,
    );
  accountAction('/console/accounts/:id/suspend', 'moderator', async (operator, file, reason, body) => {
    const ground = field(body, 'ground') === 'legal' ? 'legal' : 'terms';
    await suspendAccount(write(), file.account, { ground, explanation: reason }, operator.actor);
    return done(`/console/accounts/${file.account.id}`, 'suspended', file.account.id);
  });
  accountAction('/console/accounts/:id/restore', 'moderator', async (operator, file, reason) => {
    await restoreAccount(write(), file.account, reason, operator.actor);
    return done(`/console/accounts/${file.account.id}`, 'restored', file.account.id);
  });
  accountAction('/console/accounts/:id/erase', 'admin', async (operator, file, reason, body) => {
    if (file.operator) {
      throw new OperatorError(`This account is an operator (${file.operator.role}): take the role away first.`);
    }
    await eraseAccount(write(), file.account, field(body, 'confirm') ?? '', deps.bookingRequestTtlHours, {
      actor: operator.actor,
      reason,
    });
    return done(`/console/accounts/${file.account.id}`, 'erased', file.account.id);
  });

  // ------------------------------------------------------------ operators (admin)

  const operatorList: Again = async (request, reply, operator, shown) =>
    operatorsPage(page(request, reply), await listOperators(deps.db), reauthOf(operator, '/console/operators'), shown);
  view('/console/operators', 'admin', async (request, reply, operator) =>
    send(reply, 200, await operatorList(request, reply, operator, doneNotice(request))),
  );
  /** Giving or taking a role: a recent sign-in, the address and a reason. */
  const operatorAction = (
    path: string,
    act: (operator: Operator, email: string, reason: string, body: unknown) => Promise<string>,
  ) =>
    action(
      path,
      'admin',
      async (request, _reply, operator, refuse) => {
        if (!recent(operator)) return refuse(403, STALE_SIGN_IN);
        const reason = reasonOf(request.body);
        if (!reason) return refuse(400, MISSING_REASON);
        return act(operator, (field(request.body, 'email') ?? '').trim(), reason, request.body);
      },
      operatorList,
    );
  operatorAction('/console/operators/add', async (operator, email, reason, body) => {
    await addOperator(write(), operator.actor, email, field(body, 'role') as OperatorRole, reason);
    return done('/console/operators', 'added', email);
  });
  operatorAction('/console/operators/remove', async (operator, email, reason) => {
    await removeOperator(write(), operator.actor, email, reason);
    return done('/console/operators', 'removed', email);
  });

  // ------------------------------------------------------------ re-authentication

  // Ends this session and signs in again, coming back to the page: the new session is the recent sign-in.
  app.post('/console/reauthenticate', post, async (request, reply) => {
    const operator = await operatorIn(request, reply, 'support');
    if (!operator) return reply;
    const asked = field(request.body, 'next') ?? '/console';
    const next = CONSOLE_PATH.test(asked) ? asked : '/console';
    await endSession(deps.db, operator.signedIn.account.id, operator.signedIn.session.id, deps.now());
    reply.clearCookie(COOKIES.session, cookieOptions(request));
    reply.setCookie(COOKIES.next, next, cookieOptions(request, CODE_TTL_MINUTES * 60));
    return see(reply, `/signin?next=${encodeURIComponent(next)}`);
  });

  // ------------------------------------------------------------ audit log (admin)

  view('/console/audit', 'admin', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const text = (name: string) =>
      typeof query[name] === 'string' ? (query[name] as string).trim().slice(0, 100) : '';
    const filter = { actor: text('actor'), action: text('action'), from: text('from'), to: text('to') };
    const badDay = [filter.from, filter.to].some((day) => day !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(day));
    const rows = badDay
      ? []
      : await auditPage(deps.db, {
          actor: filter.actor || undefined,
          action: filter.action || undefined,
          from: filter.from ? `${filter.from}T00:00:00.000Z` : undefined,
          to: filter.to ? `${filter.to}T00:00:00.000Z` : undefined,
        });
    const error = badDay ? { de: 'Tage bitte als JJJJ-MM-TT.', en: 'Days as YYYY-MM-DD, please.' } : undefined;
    return send(reply, badDay ? 400 : 200, auditLogPage(page(request, reply), filter, rows, error));
  });
}
