import { isDeepStrictEqual } from 'node:util';
import { declareBudgetOnce, restoreBudgetHeaders } from './budget.js';
import { dropRequiredFalse, restoreRequiredFalse, shareComponents } from './components.js';
import { dropBodyDescriptionCopies, moveSharedParagraphs, pointTwins, restoreDescriptions } from './descriptions.js';
import { descriptionsPage, moveLongProse, type Prose, proseOfPage, restoreProse } from './prose.js';
import { chainAlikeResponses, shareSuccessResponses } from './responses.js';
import { isSharedSchemaName, sharePatterns, shareSchemas } from './schemas.js';
import type { Json, OpenApiObject } from './types.js';

/**
 * Compacts the generated OpenAPI document without changing what it says: the pieces operations
 * repeat are written once and pointed at. One module per step; this one runs them in order and
 * checks the result.
 *
 * - components.headers: the budget headers and Retry-After (error-catalogue.ts SHARED_HEADERS), named
 *   without their RateLimit prefixes (HEADER_COMPONENT_NAMES, components.ts); of the budget, every
 *   response declares RateLimit, and RateLimit-Policy with the legacy X-RateLimit-* are declared
 *   once, on the 429 answer, as RateLimit's description says (declareBudgetOnce, budget.ts);
 * - components.responses: the ApiError responses (error-catalogue.ts SHARED_ERRORS), named by their status
 *   (ERROR_COMPONENT_NAMES, components.ts); those alike but for their description reference the
 *   first with their own description (chainAlikeResponses, responses.ts); and every success
 *   response two or more operations answer alike, referenced with each operation's description
 *   (shareSuccessResponses, responses.ts). In OpenAPI 3.1 a Reference Object's description
 *   overrides the description of what it references;
 * - components.parameters: every query, path or header parameter that two or more operations declare
 *   identically (the sandbox twins, the search filters, the ids), and the Idempotency-Key header,
 *   which every POST under /v1 declares (schemas/idempotency.ts; components.ts);
 * - components.schemas: every schema repeated word for word (shareSchemas, schemas.ts), under a
 *   real name made from where it was (createJob.location: JobLocation), told from the generated
 *   document's own schemas by their list (schemas/components.ts);
 * - a request body's copy of its schema's description goes (dropBodyDescriptionCopies,
 *   descriptions.ts, as are the next two);
 * - a sandbox twin whose description is its real operation's, after a paragraph of its own, keeps
 *   that paragraph and points at the real operation for the rest (pointTwins);
 * - paragraphs that several operations repeat word for word (the life cycles of jobs, listings,
 *   applications and bookings, the webhooks chapter) are written once, under a heading in the
 *   description of a tag (the section intro Swagger UI and Redoc show), and each operation that had
 *   them says where they are (moveSharedParagraphs);
 * - last, a description longer than MAX_INLINE_CHARS keeps its first sentence and links to the whole
 *   text on the page DESCRIPTIONS_PAGE, and the account export's fields are described there, one
 *   list per section (moveLongProse, prose.ts; the page: descriptionsPageOf).
 *
 * The route schemas stay as they are (they are what requests are validated with and what the MCP
 * tools are built from); only the document is rewritten. resolveShared and expandDocument write it
 * all out again, and compactDocument checks that they do: it throws if expanding what it produced
 * differs from the document before these steps (test/http/openapi-size.test.ts).
 */

const SHARED_REF = /^#\/components\/(parameters|headers|responses|schemas)\/([^/]+)$/;

/**
 * The document with every reference to components.parameters, headers and responses, and to the
 * schemas shareSchemas added, replaced by what it points at, and the descriptions pointTwins and
 * moveSharedParagraphs shortened written out again. components stays as it is.
 */
export function resolveShared<T>(doc: T): T {
  const components = (doc as { components?: Record<string, Record<string, unknown>> }).components ?? {};
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { $ref: target, ...overrides } = node as { $ref?: unknown };
    const match = typeof target === 'string' ? SHARED_REF.exec(target) : null;
    if (match && (match[1] !== 'schemas' || isSharedSchemaName(match[2] ?? ''))) {
      const shared = components[match[1] ?? '']?.[match[2] ?? ''];
      if (shared === undefined) throw new Error(`unresolved $ref ${target}`);
      // A Reference Object's summary and description override those of what it references (OpenAPI 3.1).
      return { ...(walk(shared) as Json), ...overrides };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value)]));
  };
  const resolved = walk(doc) as OpenApiObject;
  restoreBudgetHeaders(resolved, true);
  restoreDescriptions(resolved);
  restoreRequiredFalse(resolved);
  return resolved as T;
}

/**
 * The document with everything compactDocument shared written out again where it was (see
 * resolveShared), and without the components it added: the document as generated, but for the
 * Idempotency-Key header, which it declares in its shared form on every POST under /v1. With the
 * whole texts of the long descriptions (`prose`: proseOfPage of the page), those too.
 */
export function expandDocument<T extends OpenApiObject>(doc: T, prose?: Prose): T {
  const expanded = resolveShared(prose ? restoreProse(doc, prose) : doc);
  const { parameters, headers, responses, schemas, ...components } = expanded.components ?? {};
  const own = Object.entries((schemas ?? {}) as Json).filter(([name]) => !isSharedSchemaName(name));
  return { ...expanded, components: { ...components, ...(own.length > 0 && { schemas: Object.fromEntries(own) }) } };
}

/** The compact document: the shared pieces of the generated one written once (see the top of this file). */
export function compactDocument(doc: OpenApiObject): OpenApiObject {
  const names = Object.keys(doc.components?.schemas ?? {});
  if (names.some(isSharedSchemaName))
    throw new Error(`compactDocument: a schema not in schemas/components.ts: ${names}`);
  // A copy: @fastify/swagger builds each document (JSON, YAML) from the same options objects (tags).
  const compact = shareComponents(structuredClone(doc));
  const before = expandDocument(compact);
  declareBudgetOnce(compact);
  dropBodyDescriptionCopies(compact);
  shareSuccessResponses(compact);
  chainAlikeResponses(compact);
  shareSchemas(compact);
  shareSchemas(compact, { ignoring: ['default'] });
  shareSchemas(compact, { ignoring: ['description', 'default'] });
  sharePatterns(compact);
  dropRequiredFalse(compact);
  pointTwins(compact);
  moveSharedParagraphs(compact);
  // What these steps move must all come back: expanded, the document is the same as before them.
  if (!isDeepStrictEqual(expandDocument(compact), before)) {
    throw new Error('compactDocument: sharing success responses, schemas or descriptions changed the document');
  }
  const whole = structuredClone(compact);
  const prose = moveLongProse(compact);
  const title = String((compact.info as { title?: unknown } | undefined)?.title ?? 'The API');
  if (!isDeepStrictEqual(restoreProse(compact, proseOfPage(descriptionsPage(prose, title))), whole)) {
    throw new Error('compactDocument: the page of long descriptions does not give them back');
  }
  PAGES.set(compact, descriptionsPage(prose, title));
  return compact;
}

const PAGES = new WeakMap<OpenApiObject, string>();

/** The page the long descriptions of a document compactDocument made link to (DESCRIPTIONS_PAGE). */
export function descriptionsPageOf(doc: OpenApiObject): string | undefined {
  return PAGES.get(doc);
}
