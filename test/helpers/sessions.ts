import type { Kysely } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import type { Database } from '../../src/db/schema.js';
import { browserTokenHash, newBrowserToken } from '../../src/domain/sign-in.js';
import { COOKIES } from '../../src/http/routes/sign-in-pages.js';

/**
 * A signed-in browser session of an account, stored as the sign-in pages store one (the token's
 * hash), without the e-mail code's round trip the sign-in tests go through
 * (test/http/sign-in-pages.test.ts, test/browser/sign-in.test.ts): for tests of pages that need a
 * person signed in, such as a draft's confirmation page. The cookie header and the bare token.
 */
export async function signedInAs(
  db: Kysely<Database>,
  accountId: string,
  now = new Date(),
): Promise<{ cookie: string; token: string; name: string }> {
  const token = newBrowserToken();
  const at = now.toISOString();
  await db
    .insertInto('sessions')
    .values({
      id: `ses_test${token.slice(0, 12)}`,
      token_hash: browserTokenHash(token) as string,
      account_id: accountId,
      user_agent: 'test',
      created_at: at,
      last_seen_at: at,
      expires_at: new Date(now.getTime() + 7 * 86_400_000).toISOString(),
    })
    .execute();
  return { cookie: `${COOKIES.session}=${token}`, token, name: COOKIES.session };
}

/**
 * A browser page of a new context signed in as the account on the server at `origin` (its session
 * cookie, made at `now`), or signed out with null; JavaScript off unless asked (the console's and
 * the confirm page's tests prove the pages work without it).
 */
export async function signedInPage(
  browser: Browser,
  db: Kysely<Database>,
  origin: string,
  accountId: string | null,
  options: { now: Date; locale?: string; javaScriptEnabled?: boolean },
): Promise<Page> {
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled ?? false,
    locale: options.locale ?? 'en-GB',
  });
  if (accountId) {
    const session = await signedInAs(db, accountId, options.now);
    await context.addCookies([
      { name: session.name, value: session.token, url: origin, httpOnly: true, sameSite: 'Lax' },
    ]);
  }
  return context.newPage();
}
