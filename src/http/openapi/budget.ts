import { BUDGET_HEADERS, SHARED_ERRORS } from '../error-catalogue.js';
import { HEADER_COMPONENT_NAMES } from './components.js';
import { type Json, type OpenApiObject, operationsOf, ref } from './types.js';

/**
 * The budget headers, declared once (a step of compactDocument, compact.ts). Every answer in a
 * budget carries all five of BUDGET_HEADERS (error-catalogue.ts): RateLimit-Policy, RateLimit and
 * the legacy aliases X-RateLimit-Limit, -Remaining and -Reset. The document declares RateLimit on
 * each response (Spectral's OWASP rule owasp:api4:2023-rate-limit asks every 2xx and 4xx for it);
 * the other four are declared on the 429 answers only (components.responses 429 and
 * DocumentsBudgetSpent), and RateLimit's description says that every answer carrying it carries
 * them too. restoreBudgetHeaders writes them out again on every response that has RateLimit.
 */

/** The header every answer in a budget declares. */
const DECLARED = 'RateLimit';

/** The budget headers the document declares once, on the 429 answers: every other one but RateLimit. */
const DECLARED_ONCE = Object.keys(BUDGET_HEADERS).filter((name) => name !== DECLARED);

/** The components.responses that answer 429: they keep every budget header. */
const TOO_MANY = new Set(
  Object.entries(SHARED_ERRORS)
    .filter(([, { status }]) => status === 429)
    .map(([name]) => name),
);

/** Every response of the document, with its status ('' for a component's whose status is unknown). */
function* responsesOf(doc: OpenApiObject): Generator<[status: string, response: Json]> {
  for (const [, , operation] of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) yield [status, response];
  }
  for (const [name, response] of Object.entries((doc.components?.responses ?? {}) as Record<string, Json>)) {
    const status = TOO_MANY.has(name) || name === '429' ? '429' : '';
    yield [status, response];
  }
}

const carriesAll = (headers: Json) => Object.keys(BUDGET_HEADERS).every((name) => name in headers);

/** Leaves RateLimit on every response that carries the whole budget, but the 429s. */
export function declareBudgetOnce(doc: OpenApiObject): void {
  for (const [status, response] of responsesOf(doc)) {
    const headers = response.headers as Json | undefined;
    if (status === '429' || !headers || '$ref' in response || !carriesAll(headers)) continue;
    for (const name of DECLARED_ONCE) delete headers[name];
  }
}

/**
 * Writes the budget headers out again on every response that declares RateLimit without them:
 * references to components.headers, or (`resolved`) the header objects themselves.
 */
export function restoreBudgetHeaders(doc: OpenApiObject, resolved = false): void {
  const components = (doc.components?.headers ?? {}) as Record<string, Json>;
  for (const [, response] of responsesOf(doc)) {
    const headers = response.headers as Json | undefined;
    if (!headers || !(DECLARED in headers) || DECLARED_ONCE.some((name) => name in headers)) continue;
    const written: Json = {};
    for (const [name, header] of Object.entries(headers)) {
      if (name === DECLARED) {
        for (const budget of Object.keys(BUDGET_HEADERS)) {
          const component = HEADER_COMPONENT_NAMES[budget] ?? budget;
          written[budget] =
            budget === DECLARED ? header : resolved ? { ...components[component] } : ref('headers', component);
        }
      } else written[name] = header;
    }
    response.headers = written;
  }
}
