import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { type AppDeps, buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import type { Db } from '../../src/db/create-db.js';
import type { Api } from '../../src/http/route-deps.js';
import { findOrCreateAccount, issueKey } from '../../src/repositories/access.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/demo-db.js';
import { openTestDb } from './database.js';

/** The fixed "now" of the HTTP tests: Friday 20 November 2026, 12:00 UTC (13:00 in Karlsruhe). */
export const NOW = new Date('2026-11-20T12:00:00.000Z');

export interface TestApp {
  app: Api;
  db: Db;
}

/** Budgets so large no test meets them by accident; rate-limit tests pass their own. */
const UNLIMITED = {
  RATE_LIMIT_ANONYMOUS_PER_MIN: '1000000',
  RATE_LIMIT_DEVELOPER_PER_MIN: '1000000',
  RATE_LIMIT_SANDBOX_PER_MIN: '1000000',
  DOCS_RATE_LIMIT_PER_MIN: '1000000',
  MCP_RATE_LIMIT_PER_MIN: '1000000',
  APPLICATIONS_PER_ACCOUNT_PER_HOUR: '1000000',
  BOOKINGS_PER_ACCOUNT_PER_HOUR: '1000000',
  MESSAGES_PER_ACCOUNT_PER_HOUR: '1000000',
  NEW_CONVERSATIONS_PER_ACCOUNT_PER_HOUR: '1000000',
  // In-process apps send no webhooks (tests of delivery run a real server process and receiver).
  WEBHOOK_DELIVERY: 'false',
  // Nor notification e-mails on their own (tests of notifications run the sweep themselves, to a real SMTP server).
  NOTIFICATION_EMAILS: 'false',
};

/**
 * The sandbox (/v1/demo) of every app a test file builds: its dataset is seeded once per process
 * instead of once per app, read-only as the sandbox is, and rebuilt (sandbox.refresh) when the app
 * built last moves its clock to another Berlin day. Never closed: an in-memory database holds no
 * handle that keeps the process alive.
 */
let sharedSandbox: Promise<Sandbox> | undefined;
let sandboxClock: () => Date = () => NOW;

/**
 * The app on a fresh database of the run's engine (in-memory SQLite or a PostgreSQL schema, see
 * database.ts) with the schema; both closed, and the database dropped, when the test ends.
 */
export async function buildTestApp(
  t: Pick<TestContext, 'after'>,
  /** A fixed instant, or a clock the test moves. */
  now: Date | (() => Date) = NOW,
  config: Parameters<typeof testConfig>[0] = {},
  deps: Omit<AppDeps, 'db' | 'now'> = {},
): Promise<TestApp> {
  const { db, dispose } = await openTestDb();
  const clock = typeof now === 'function' ? now : () => now;
  let app: Api;
  try {
    sandboxClock = clock;
    sharedSandbox ??= createSandbox(() => sandboxClock());
    app = await buildApp(testConfig({ ...UNLIMITED, ...config }), {
      db,
      now: clock,
      sandbox: await sharedSandbox,
      ...deps,
    });
  } catch (error) {
    await dispose();
    throw error;
  }
  t.after(async () => {
    await app.close();
    await dispose();
  });
  return { app, db };
}

/** POSTs `payload` with a developer key, asserts a 201 and returns the new object's id. */
export async function createdId(app: Api, key: string, url: string, payload: object): Promise<string> {
  const response = await app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload });
  assert.equal(response.statusCode, 201, `${url}: ${response.body}`);
  return (response.json() as { id: string }).id;
}

/**
 * A request through the app in-process, with a developer key when given and a JSON body when
 * given; returns status, headers and the parsed JSON body.
 */
export async function sendJson(
  app: Api,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  key?: string,
  body?: object,
) {
  const response = await app.inject({
    method,
    url,
    headers: key ? { 'x-api-key': key } : {},
    ...(body === undefined ? {} : { payload: body }),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as any };
}

/**
 * A client of the app in-process for one account (a developer key, or null: anonymous): each call
 * answers status, headers, the parsed JSON body (undefined when empty) and the raw text.
 */
export function clientFor(app: Api, key: string | null) {
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (response.body === '' ? undefined : response.json()) as any,
      raw: response.body,
    };
  };
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, body?: unknown, headers?: Record<string, string>) => send('POST', url, body, headers),
    put: (url: string, body: unknown) => send('PUT', url, body),
    patch: (url: string, body: unknown) => send('PATCH', url, body),
    delete: (url: string, body?: unknown) => send('DELETE', url, body),
  };
}
export type Client = ReturnType<typeof clientFor>;

/** GET through the app in-process; returns status, headers and the parsed JSON body. */
export async function getJson(app: Api, url: string) {
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, headers: response.headers, body: response.json() as any };
}

/** An account with a fresh developer key, straight in the database; returns the key (shown once). */
export async function createKey(
  db: Db,
  account: { email?: string; account_type?: 'private' | 'commercial' } = {},
  now: Date = NOW,
): Promise<{ key: string; id: string; accountId: string }> {
  const { row: created } = await findOrCreateAccount(
    db.kysely,
    {
      name: 'Test Developer',
      email: account.email ?? 'dev@example.org',
      organisation: null,
      account_type: account.account_type ?? 'private',
    },
    now,
  );
  const issued = await issueKey(db.kysely, created.id, now);
  return { key: issued.key, id: issued.row.id, accountId: created.id };
}
