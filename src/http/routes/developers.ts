import formBody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KEY_REVIEW_HOURS } from '../../domain/tiers.js';
import { fileKeyRequest } from '../../services/key-requests.js';
import { sendHtmlPage } from '../html-page.js';
import { requestLanguage, sayLanguage } from '../language.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { checkForm, type FormLanguage } from '../views/developers-form.js';
import { confirmationPage, type PageFacts, registrationPage } from '../views/developers-page.js';
import { writeContext } from '../write-kit.js';

// Scripts from nowhere (the page has none), styles only inline or from here, the form posts only here.
const CSP =
  "default-src 'self'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * Every valid form fits: 2,554 characters at most, each up to 9 bytes once UTF-8 and %-encoded.
 * A smaller limit would answer a long non-Latin intended use with a JSON 413.
 */
const FORM_BODY_LIMIT = 32 * 1024;

const CROSS_SITE = {
  en: 'The form was sent from another website, so we did not file it. If you want a developer key, fill in the form below and send it from this page.',
  de: 'Das Formular wurde von einer anderen Website gesendet, darum haben wir es nicht eingereicht. Wenn Sie einen Entwicklerschlüssel möchten, füllen Sie das Formular unten aus und senden Sie es von dieser Seite.',
};

/** The page's language (issue 36): ?lang=de|en (the link on the page), else Accept-Language. */
function pageLanguage(request: FastifyRequest): FormLanguage {
  const asked = (request.query as { lang?: unknown } | undefined)?.lang;
  return asked === 'de' || asked === 'en' ? asked : requestLanguage(request);
}

const sendPage = (reply: FastifyReply, status: number, page: string, language: FormLanguage) => {
  sayLanguage(reply, language);
  return sendHtmlPage(reply, status, page, CSP);
};

/**
 * Whether a browser sent this request on behalf of another site (cross-site request forgery):
 * Sec-Fetch-Site says so in current browsers; the Origin and the Referer, each when sent, must name
 * this service's own origin (the host and port the request was addressed to). A request with none
 * of the three (curl, a script) is no browser acting for someone else.
 */
export function isCrossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const { origin, referer } = request.headers;
  return [origin, referer].some((sent) => sent !== undefined && !isOwnOrigin(sent, request.host));
}

/** Whether an Origin or Referer value is an http(s) URL of this host and port. */
function isOwnOrigin(sent: string, host: string): boolean {
  try {
    const from = new URL(sent);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return false;
    // The Host read with the URL's scheme, so that default ports and letter case compare equal.
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    // "null" (sandboxed frames, some redirects), no URL, or no Host to compare with: not provably this site.
    return false;
  }
}

/**
 * The human face of POST /v1/developer/key-requests: a form that works without JavaScript and
 * enforces the same KeyRequestBody schema, with each problem shown next to its field.
 *
 * A Fastify plugin (`app.register(developerPageRoutes, deps)`), so that form bodies are parsed
 * only here: the JSON endpoints answer them 415, and no other site can post one to them.
 */
export async function developerPageRoutes(app: Api, deps: RouteDeps): Promise<void> {
  const { limits } = deps;
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT });
  const facts: PageFacts = {
    reviewHours: KEY_REVIEW_HOURS,
    developerLimit: limits.developer,
    anonymousLimit: limits.anonymous,
  };

  app.get('/developers', { schema: { hide: true } }, async (request, reply) => {
    const language = pageLanguage(request);
    return sendPage(reply, 200, registrationPage({}, {}, facts, undefined, language), language);
  });

  app.post(
    '/developers',
    {
      schema: { hide: true },
      bodyLimit: FORM_BODY_LIMIT,
      // Before the body is read: a submission from another site is refused whatever it holds.
      onRequest: async (request, reply) => {
        if (isCrossSite(request)) {
          const language = pageLanguage(request);
          return sendPage(reply, 403, registrationPage({}, {}, facts, CROSS_SITE[language], language), language);
        }
      },
    },
    async (request, reply) => {
      const language = pageLanguage(request);
      const { values, errors, request: filing } = checkForm(request.body, language);
      if (!filing) return sendPage(reply, 400, registrationPage(values, errors, facts, undefined, language), language);
      // 202 as in the JSON endpoint, also when the address has a request waiting (nothing filed then):
      // the page never tells whether it has.
      const created = await fileKeyRequest(writeContext(request, deps), filing);
      return sendPage(reply, 202, confirmationPage(created, facts, language), language);
    },
  );
}
