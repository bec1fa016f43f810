// The request check: every request the test suite sent that the server accepted must be valid
// against the OpenAPI document the server serves. scripts/run-tests.mjs runs the tests with
// REQUEST_LOG_DIR set, so test/helpers/request-log.mjs logs each request that passed the server's
// validation (in-process apps and real server processes alike); then it runs this on that folder:
//
//   node --import tsx scripts/check-requests.mjs <REQUEST_LOG_DIR>
//
// A request counts as accepted when it passed the server's validation and was answered below 400,
// or 404 (a well-formed request for something that is not there). Each distinct one is judged by
// Prism's request validator (test/helpers/request-check.ts). Exits non-zero, listing operation, test
// file, request and why, when the document refuses any of them. Requests to routes the document
// does not describe (/docs, the /developers form, test receivers) are counted, not judged.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedDocument } from './served-document.mjs';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node --import tsx scripts/check-requests.mjs <REQUEST_LOG_DIR>');

const started = performance.now();
const { requestChecker } = await import('../test/helpers/request-check.ts');
const check = await requestChecker(await servedDocument());

/** @type {Map<string, import('../test/helpers/request-check.ts').LoggedRequest>} */
const distinct = new Map();
let logged = 0;
const sources = new Set();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (line === '') continue;
    const request = JSON.parse(line);
    // Refused after validation all the same (401, 403, 405, 409, 429 ...): not an accepted request.
    if (request.status >= 400 && request.status !== 404) continue;
    // The not-found handler's 404s are for no route at all.
    if (request.route === null) continue;
    logged += 1;
    sources.add(request.source);
    const key = JSON.stringify([request.method, request.url, request.headers, request.body]);
    if (!distinct.has(key)) distinct.set(key, request);
  }
}

const operations = new Set();
const undocumented = new Map();
const mismatches = [];
for (const request of distinct.values()) {
  const verdict = await check(request).catch((error) => ({ kind: 'undocumented', reason: error.message }));
  if (verdict.kind === 'undocumented') {
    const route = `${request.method} ${request.route}`;
    undocumented.set(route, (undocumented.get(route) ?? 0) + 1);
    continue;
  }
  operations.add(verdict.operation);
  if (verdict.kind === 'invalid') mismatches.push({ request, verdict });
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `\nRequest check: ${logged} accepted requests from ${sources.size} test file(s), ${distinct.size} distinct; ` +
    `${distinct.size - [...undocumented.values()].reduce((a, b) => a + b, 0)} judged against the served document ` +
    `(${operations.size} operations), ${mismatches.length} refused by it; ${seconds} s.\n`,
);
if (undocumented.size > 0) {
  const routes = [...undocumented].map(([route, n]) => `${route} (${n})`).join(', ');
  process.stdout.write(`  Not in the document (not judged): ${routes}\n`);
}
for (const { request, verdict } of mismatches.slice(0, 50)) {
  const body = request.body === undefined ? '' : ` body ${JSON.stringify(request.body).slice(0, 300)}`;
  process.stdout.write(
    `\n  ${verdict.operation}: ${request.method} ${request.url.slice(0, 300)}${body}\n` +
      `    answered ${request.status} by the server (${request.source}); the document refuses it:\n` +
      verdict.problems.map((p) => `    - ${p.slice(0, 400)}\n`).join(''),
  );
}
if (mismatches.length > 50) process.stdout.write(`\n  ... and ${mismatches.length - 50} more\n`);
process.exitCode = mismatches.length > 0 ? 1 : 0;
