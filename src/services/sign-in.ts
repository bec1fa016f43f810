import type { Kysely } from 'kysely';
import type { AccountRow, AccountType, Database, SessionRow, SignInPurpose } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import {
  browserTokenHash,
  CODE_MAX_TRIES,
  CODE_TTL_MINUTES,
  codeHash,
  codeMatches,
  newBrowserToken,
  newCode,
  SESSION_DAYS,
  SESSION_IDLE_DAYS,
  SESSION_TOUCH_MS,
} from '../domain/sign-in.js';
import type { Mailer } from '../mail/mailer.js';
import { type PageLanguage, type SignInEmailCase, signInEmail } from '../mail/sign-in-email.js';
import { findOrCreateAccount } from '../repositories/access.js';
import { findAccount } from '../repositories/account-erasure.js';
import { deleteExpiredOauthRecords } from '../repositories/oauth-records.js';
import { deleteExpiredPasskeyChallenges } from '../repositories/passkeys.js';
import {
  accountOfEmail,
  countWrongTry,
  deleteEndedSessions,
  deleteExpiredSignInCodes,
  deleteSession,
  findSession,
  findSignInCode,
  insertSession,
  insertSignInCode,
  sessionsOfAccount,
  takeSignInCode,
  touchSession,
} from '../repositories/sign-in.js';
import { inWriteTransaction, type WriteTransaction } from '../repositories/write-transaction.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** What a sign-up or sign-in form asked for, its fields checked by the page. */
export type CodeRequest =
  | { purpose: 'signup'; email: string; name: string; account_type: AccountType }
  | { purpose: 'signin'; email: string };

export interface CodeSending {
  db: Kysely<Database>;
  mailer: Mailer;
  now: Date;
  /** Where the e-mail's links point (PUBLIC_URL). */
  baseUrl: string;
  language: PageLanguage;
}

/** What the page learns of a sent code: the browser's challenge token, and nothing about the account. */
export interface SentCode {
  challenge: string;
  expiresAt: Date;
  /** For the log only (never shown): why no code was sent. */
  sent: SignInEmailCase['kind'];
}

const signsIn = (account: AccountRow | undefined) =>
  account !== undefined && account.erased_at === null && account.suspended_at === null;

/**
 * Sends a six-digit code to the address (sign-up and sign-in alike), valid CODE_TTL_MINUTES and
 * CODE_MAX_TRIES tries, kept only as an HMAC keyed by the challenge token the browser gets.
 * Every address is answered alike: an address without an account (for sign-in) or of a suspended
 * account gets an e-mail that says so instead of a code, and its challenge holds a code nobody
 * knows. Sign-up to an address that has an account signs in to that account.
 */
export async function sendSignInCode(sending: CodeSending, request: CodeRequest): Promise<SentCode> {
  const { db, now } = sending;
  const email = request.email.toLowerCase();
  const account = await accountOfEmail(db, email);
  const known = account !== undefined && account.erased_at === null;
  const what: SignInEmailCase =
    known && account.suspended_at !== null
      ? { kind: 'suspended' }
      : known || request.purpose === 'signup'
        ? { kind: 'code', code: newCode(), minutes: CODE_TTL_MINUTES }
        : { kind: 'no-account' };
  const challenge = newBrowserToken();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * MINUTE_MS);
  await inWriteTransaction({ db, now, claim: null }, async (trx) => {
    await deleteExpiredSignInCodes(trx, now);
    await insertSignInCode(trx, {
      id: newId('sic'),
      challenge_hash: browserTokenHash(challenge) as string,
      code_hash: codeHash(challenge, what.kind === 'code' ? what.code : newCode()),
      purpose: request.purpose satisfies SignInPurpose,
      email,
      name: request.purpose === 'signup' ? request.name : null,
      account_type: request.purpose === 'signup' ? request.account_type : null,
      account_id: known ? account.id : null,
      tries: 0,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    });
  });
  await sending.mailer.send(signInEmail({ to: email, language: sending.language, baseUrl: sending.baseUrl, what }));
  return { challenge, expiresAt, sent: what.kind };
}

/** Where a challenge stands before a code is entered: the page shows the address it went to. */
export async function pendingCode(
  db: Kysely<Database>,
  challenge: string | undefined,
  now: Date,
): Promise<{ email: string; purpose: SignInPurpose } | undefined> {
  const hash = browserTokenHash(challenge);
  const row = hash ? await findSignInCode(db, hash) : undefined;
  if (!row || row.expires_at <= now.toISOString() || row.tries >= CODE_MAX_TRIES) return undefined;
  return { email: row.email, purpose: row.purpose };
}

export type CodeOutcome =
  | { outcome: 'unknown' }
  | { outcome: 'expired' }
  | { outcome: 'exhausted' }
  | { outcome: 'wrong'; triesLeft: number }
  | { outcome: 'refused'; accountId: string }
  | { outcome: 'signed-in'; token: string; session: SessionRow; account: AccountRow; created: boolean };

export interface SessionStart {
  db: Kysely<Database>;
  now: Date;
  /** The browser's User-Agent, kept (shortened) so the person can tell their sessions apart. */
  userAgent: string | undefined;
}

/**
 * A typed code against the browser's challenge. Right: the code is used up, the account found
 * (sign-in) or created at once (sign-up; an account the address has already is kept as it is),
 * and a session starts. Wrong: a try is counted; the fifth wrong try ends the code. A suspended
 * or erased account never gets a session.
 */
export async function enterSignInCode(
  start: SessionStart,
  challenge: string | undefined,
  code: string | undefined,
): Promise<CodeOutcome> {
  const { db, now } = start;
  const hash = browserTokenHash(challenge);
  const row = hash ? await findSignInCode(db, hash) : undefined;
  if (!row || challenge === undefined) return { outcome: 'unknown' };
  if (row.expires_at <= now.toISOString()) return { outcome: 'expired' };
  if (row.tries >= CODE_MAX_TRIES) return { outcome: 'exhausted' };
  const context = { db, now, claim: null };
  if (code === undefined || !codeMatches(challenge, code, row.code_hash)) {
    const tries = await inWriteTransaction(context, (trx) => countWrongTry(trx, row.id, CODE_MAX_TRIES));
    if (tries === undefined || tries >= CODE_MAX_TRIES) return { outcome: 'exhausted' };
    return { outcome: 'wrong', triesLeft: CODE_MAX_TRIES - tries };
  }
  return inWriteTransaction(context, async (trx): Promise<CodeOutcome> => {
    if (!(await takeSignInCode(trx, row.id))) return { outcome: 'unknown' };
    let account: AccountRow | undefined;
    let created = false;
    if (row.purpose === 'signup' && row.name !== null && row.account_type !== null) {
      const found = await findOrCreateAccount(
        trx,
        { name: row.name, email: row.email, organisation: null, account_type: row.account_type },
        now,
      );
      account = found.row;
      created = found.created;
    } else if (row.account_id !== null) {
      account = await findAccount(trx, row.account_id);
    }
    if (!account) return { outcome: 'unknown' };
    return startSession(trx, start, account, created);
  });
}

/**
 * A new session of the account, in the transaction that proved who is signing in (a code or a
 * passkey), unless the account is suspended or erased; the account's ended sessions go first.
 */
export async function startSession(
  trx: WriteTransaction,
  start: SessionStart,
  account: AccountRow,
  created = false,
): Promise<Extract<CodeOutcome, { outcome: 'signed-in' | 'refused' }>> {
  const { now } = start;
  if (!signsIn(account)) return { outcome: 'refused', accountId: account.id };
  await deleteEndedSessions(trx, now, new Date(now.getTime() - SESSION_IDLE_DAYS * DAY_MS), account.id);
  const token = newBrowserToken();
  const session: SessionRow = {
    id: newId('ses'),
    token_hash: browserTokenHash(token) as string,
    account_id: account.id,
    user_agent: start.userAgent?.slice(0, 200) || null,
    created_at: now.toISOString(),
    last_seen_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_DAYS * DAY_MS).toISOString(),
  };
  await insertSession(trx, session);
  return { outcome: 'signed-in', token, session, account, created };
}

export interface SignedIn {
  session: SessionRow;
  account: AccountRow;
}

/**
 * The session of a cookie's token, while it is valid: not past its expiry, used within
 * SESSION_IDLE_DAYS, its account neither erased nor suspended. Its last use is written at most
 * every SESSION_TOUCH_MS.
 */
export async function sessionOfToken(
  db: Kysely<Database>,
  token: string | undefined,
  now: Date,
): Promise<SignedIn | undefined> {
  const hash = browserTokenHash(token);
  const found = hash ? await findSession(db, hash) : undefined;
  if (!found || !signsIn(found.account)) return undefined;
  const { session } = found;
  const at = now.getTime();
  if (!live(session, at)) return undefined;
  if (at - Date.parse(session.last_seen_at) >= SESSION_TOUCH_MS) {
    await touchSession(db, session.id, now);
    return { ...found, session: { ...session, last_seen_at: now.toISOString() } };
  }
  return found;
}

/**
 * A session for the operators' console (issue 33): as sessionOfToken, but it ends after `idleMs`
 * without a request (the session is deleted: the person signs in again), and every request counts.
 * 'ended' when it ended now; undefined without a live session.
 */
export async function consoleSessionOfToken(
  db: Kysely<Database>,
  token: string | undefined,
  now: Date,
  idleMs: number,
): Promise<SignedIn | 'ended' | undefined> {
  const hash = browserTokenHash(token);
  const found = hash ? await findSession(db, hash) : undefined;
  if (!found || !signsIn(found.account) || !live(found.session, now.getTime())) return undefined;
  const { session } = found;
  if (now.getTime() - Date.parse(session.last_seen_at) >= idleMs) {
    await inWriteTransaction({ db, now, claim: null }, (trx) => deleteSession(trx, session.account_id, session.id));
    return 'ended';
  }
  await touchSession(db, session.id, now);
  return { ...found, session: { ...session, last_seen_at: now.toISOString() } };
}

const live = (session: SessionRow, at: number) =>
  Date.parse(session.expires_at) > at && Date.parse(session.last_seen_at) + SESSION_IDLE_DAYS * DAY_MS > at;

/** The account's sessions that still work, newest first (the others go at its next sign-in). */
export async function sessionsOf(db: Kysely<Database>, accountId: string, now: Date): Promise<SessionRow[]> {
  return (await sessionsOfAccount(db, accountId)).filter((session) => live(session, now.getTime()));
}

/** Ends one of the account's sessions (sign-out, or revoking it on /account); false when it was not one. */
export function endSession(db: Kysely<Database>, accountId: string, sessionId: string, now: Date): Promise<boolean> {
  return inWriteTransaction({ db, now, claim: null }, (trx) => deleteSession(trx, accountId, sessionId));
}

/**
 * Forgets the sign-in codes, passkey challenges and OAuth codes and tokens that expired and the sessions that ended (past their 30 days, or unused
 * for 7), of every account: sending a code and signing in forget them too, but only when someone
 * does, so a periodic sweep (background.ts) bounds how long a quiet site keeps an address a code
 * went to, or a dead session's browser. How many rows it removed.
 */
export function forgetEndedSignIns(db: Kysely<Database>, now: Date): Promise<number> {
  return inWriteTransaction({ db, now, claim: null }, async (trx) => {
    const codes = await deleteExpiredSignInCodes(trx, now);
    const challenges = await deleteExpiredPasskeyChallenges(trx, now);
    const oauth = await deleteExpiredOauthRecords(trx, now);
    const sessions = await deleteEndedSessions(trx, now, new Date(now.getTime() - SESSION_IDLE_DAYS * DAY_MS));
    return codes + challenges + oauth + sessions;
  });
}
