/**
 * The request check (scripts/check-requests.mjs): does the OpenAPI document accept a request the
 * server accepted? Judged by Prism's own request validator (@stoplight/prism-http), the mock
 * server and validation proxy integrators put in front of an API: it routes the request to its
 * operation, deserialises the query, path and header parameters by their style, and validates them,
 * the media type and the body with JSON Schema 2020-12, and the security requirements. A request it
 * refuses is one a client generated from the document, or Prism itself, would refuse too.
 *
 * The document declares enums as their canonical values and marks (`x-any-case`,
 * src/http/openapi/accepted.ts) where the server takes them in any letter case: the check takes
 * those in any case too, as the server does, and everything else exactly as declared.
 */
import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { ANY_CASE } from '../../src/http/openapi/accepted.js';
import { acceptedQuerySchema } from '../../src/http/plugins/query-guard.js';

/** One request as test/helpers/request-log.mjs wrote it. */
export interface LoggedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  status: number;
  route?: string | null;
  source?: string;
}

export type Verdict =
  | { kind: 'valid'; operation: string }
  | { kind: 'invalid'; operation: string; problems: string[] }
  | { kind: 'undocumented'; reason: string };

/** Prism logs through pino; the check reports by itself. */
const silent: Record<string, unknown> = new Proxy(
  {},
  { get: (_target, name) => (name === 'child' ? () => silent : () => undefined) },
);

/** The errors among Prism's diagnostics (warnings and hints do not make a request invalid), with where. */
interface PrismDiagnostic {
  message: string;
  /** DiagnosticSeverity.Error (0) of @stoplight/types, or its name in a problem+json error. */
  severity: number | string;
  path?: (string | number)[];
  location?: (string | number)[];
}
type Problems = { validation?: PrismDiagnostic[] };

const errorsOf = (diagnostics: readonly PrismDiagnostic[]) =>
  diagnostics
    .filter((d) => d.severity === 0 || d.severity === 'Error')
    .map((d) => {
      const where = d.path ?? d.location ?? [];
      return `${where.length > 0 ? `${where.join('.')}: ` : ''}${d.message}`;
    });

/**
 * A request the server refused (a 404 for a resource that is not there, or not yours) may lack the
 * credentials the document asks for: the refusal agrees with the document. Its parameters and body
 * were still taken, so they are judged.
 */
const asAnswered = (request: LoggedRequest, problems: string[]) =>
  request.status < 400 ? problems : problems.filter((p) => !/security/i.test(p));

/** Prism's routing errors: no operation of the document has this path (or method). */
const NOT_ROUTED = /#NO_(PATH_MATCHED|METHOD_MATCHED|SERVER_MATCHED|RESOURCE_PROVIDED)_ERROR$/;

/**
 * The document with every schema marked `x-any-case` as wide as the server takes it: anyOf the
 * declared enum (or boolean) and the same values in any letter case, by the query guard's own rule
 * (acceptedQuerySchema; a write body's enums follow the same rule in write-body.ts `strictly`).
 */
export function anyCaseWidened<T>(document: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const { [ANY_CASE]: mark, ...rest } = node as Record<string, unknown>;
    const walked = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, walk(value)]));
    return mark === true ? acceptedQuerySchema(walked) : walked;
  };
  return walk(document) as T;
}

/** A checker for one document; `check` judges one logged request. */
export async function requestChecker(document: object) {
  const operations = await getHttpOperationsFromSpec(anyCaseWidened(document) as never);
  const prism = createInstance(
    {
      mock: { dynamic: false },
      checkSecurity: true,
      validateRequest: true,
      validateResponse: false,
      errors: false,
      upstreamProxy: undefined,
      isProxy: false,
    } as never,
    { logger: silent as never },
  );

  // For naming the operation in a report: the first of the document's whose method and path template match.
  const named = (operations as { iid?: string; method: string; path: string }[]).map((op) => ({
    name: `${op.iid ?? ''} (${op.method.toUpperCase()} ${op.path})`.trim(),
    method: op.method,
    path: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const operationOf = (method: string, path: string) =>
    named.find((op) => op.method === method && op.path.test(path))?.name ?? `${method.toUpperCase()} ${path}`;

  const schemes = (
    document as { components?: { securitySchemes?: Record<string, { type?: string; scheme?: string }> } }
  ).components?.securitySchemes;
  const declaresDpop = Object.values(schemes ?? {}).some(
    (scheme) => scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'dpop',
  );

  return async function check(request: LoggedRequest): Promise<Verdict> {
    // The request target as sent: origin-form (/v1/jobs?...), whatever its path looks like (//x is a path too).
    const url = new URL(`http://localhost${request.url.startsWith('/') ? '' : '/'}${request.url}`);
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) {
      const before = query[name];
      query[name] = before === undefined ? value : [...[before].flat(), value];
    }
    const body = request.body;
    const headers = { ...request.headers };
    // Prism has no handler for the DPoP scheme (http/dpop, RFC 9449): a request under it is judged
    // as the OAuth access token it carries, as Authorization: Bearer, when the document declares
    // the scheme (every operation that lists it lists OAuth2 beside it: KEY_SECURITY).
    const dpop = /^DPoP\s+(.*)$/is.exec(headers.authorization ?? '');
    if (dpop && declaresDpop) headers.authorization = `Bearer ${dpop[1]}`;
    if (body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(JSON.stringify(body)));
    // HEAD is the GET without a body (Fastify answers it for every GET); the document lists the GET.
    const method = (request.method === 'HEAD' ? 'get' : request.method.toLowerCase()) as 'get';
    const result = await prism.request({ method, url: { path: url.pathname, query }, headers, body }, operations)();
    const operation = operationOf(method, url.pathname);
    if (result._tag === 'Left') {
      // Prism answers a request its routing finds no operation for, and one that is invalid where
      // the document has no 4xx to mock, with a problem+json error instead of a response.
      const left = result.left as { name?: string; message?: string; detail?: string; additional?: Problems };
      if (NOT_ROUTED.test(left.name ?? '')) return { kind: 'undocumented', reason: left.message ?? String(left.name) };
      const problems = errorsOf(left.additional?.validation ?? []);
      if (left.name?.endsWith('#UNAUTHORIZED')) problems.push(`security: ${left.detail}`);
      const found = asAnswered(request, problems.length > 0 ? problems : [left.detail ?? String(left.name)]);
      return found.length > 0 ? { kind: 'invalid', operation, problems: found } : { kind: 'valid', operation };
    }
    const { validations } = result.right as unknown as { validations: { input: PrismDiagnostic[] } };
    const problems = asAnswered(request, errorsOf(validations.input));
    return problems.length === 0 ? { kind: 'valid', operation } : { kind: 'invalid', operation, problems };
  };
}
