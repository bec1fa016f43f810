// The request log of the contract check (scripts/check-requests.mjs): loaded into every Node
// process of a test run with `--import` in NODE_OPTIONS (scripts/run-tests.mjs sets it, with
// REQUEST_LOG_DIR), so it sees the in-process apps of the test files and the real server processes
// they start alike, without a line of production code. Through Fastify's diagnostics channel
// `fastify.initialization` it adds two hooks to every Fastify instance before any route or plugin:
//
//   preValidation (the first one): keeps a copy of the body as it arrived, before the app's own
//     hooks change it (enum values made canonical, texts trimmed);
//   preHandler, which runs only once schema validation passed: when the response is finished,
//     appends the request to REQUEST_LOG_DIR/<pid>.jsonl: method, the URL as sent, the headers
//     that matter to the document (secrets replaced), the body, the status.
//
// No onResponse hook: one added to the root this early changes which hooks the scopes registered
// later inherit (an onResponse a test adds after buildApp no longer reached the /docs assets).
//
// Plain JavaScript: it is loaded before tsx, in processes that may not load tsx at all.
import { subscribe } from 'node:diagnostics_channel';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.env.REQUEST_LOG_DIR;
// Which test file sent a request: a test file's process names itself, and the servers it starts inherit it.
process.env.REQUEST_LOG_SOURCE ??= process.argv[1] ? relative(process.cwd(), process.argv[1]) : 'unknown';
const source = process.env.REQUEST_LOG_SOURCE;

/** The headers the document says something about; credentials are replaced by their shape. */
// Not Accept: the server answers JSON whatever a client accepts, and a mock server's content
// negotiation is not the validity of a request.
const KEPT_HEADERS = ['content-type', 'content-length', 'idempotency-key', 'last-event-id'];

function loggedHeaders(headers) {
  const kept = {};
  for (const name of KEPT_HEADERS) if (headers[name] !== undefined) kept[name] = headers[name];
  if (headers['x-api-key'] !== undefined) kept['x-api-key'] = 'kmp_[redacted]';
  const authorization = headers.authorization;
  if (typeof authorization === 'string') kept.authorization = `${authorization.split(' ', 1)[0]} [redacted]`;
  return kept;
}

/**
 * A test that proves a leniency of the server beyond the document on purpose (another
 * Authorization scheme read as anonymous, padding trimmed from a key request) marks such a request
 * with this header: it is not logged, so the contract check judges only requests a client of the
 * document would send. Used sparingly; each use says which leniency (docs/development.md).
 */
export const OFF_CONTRACT_HEADER = 'x-test-off-contract';

const arrived = Symbol('request-log.body');
let fd;

function append(line) {
  fd ??= openSync(join(dir, `${process.pid}.jsonl`), 'a');
  writeSync(fd, `${JSON.stringify(line)}\n`);
}

if (dir) {
  process.once('exit', () => fd !== undefined && closeSync(fd));
  subscribe('fastify.initialization', ({ fastify }) => {
    fastify.addHook('preValidation', async (request) => {
      if (request.body !== undefined) request[arrived] = structuredClone(request.body);
    });
    fastify.addHook('preHandler', async (request, reply) => {
      if (request.headers[OFF_CONTRACT_HEADER] !== undefined) return;
      const line = {
        method: request.method,
        url: request.raw.url,
        headers: loggedHeaders(request.headers),
        ...(request[arrived] !== undefined && { body: request[arrived] }),
        route: request.routeOptions.url ?? null,
        source,
      };
      reply.raw.once('finish', () => append({ ...line, status: reply.raw.statusCode }));
    });
  });
}
