/**
 * The operators' console (issue 33): who may enter (a signed-in account with an operator's role),
 * what each role sees, and the queues' figures. The pages are in http/views/console-pages.ts.
 */
import type { AccountRow, AuditLogRow, ClaimRow, OperatorRole, OperatorRow } from '../db/schema.js';
import { parseReportSnapshot, type ReportSnapshot } from '../domain/report-snapshot.js';
import { findAccount } from '../repositories/account-erasure.js';
import { claimsIn, findClaim } from '../repositories/claims.js';
import {
  accountObjects,
  appealQueue,
  bookingOfClaim,
  claimQueue,
  conversationOfMessage,
  conversationOfParties,
  keyRequestQueue,
  keysOfAccount,
  paymentsOfBooking,
  pendingAppealRows,
  type QueueFigure,
  reportQueue,
  reportsAboutAccount,
  searchAccounts,
  verificationQueue,
  verificationsOfHelper,
} from '../repositories/console.js';
import { listPendingRequests } from '../repositories/key-requests.js';
import {
  type AppealRow,
  accountDecisions,
  type DecisionRow,
  findAppeal,
  findDecision,
  findReport,
  itemOwner,
  type ReportRow,
  receivedReports,
} from '../repositories/notices.js';
import { findOperator } from '../repositories/operators.js';
import { findVerification, listPendingVerifications } from '../repositories/verifications.js';
import { inWriteTransaction, type WriteContext, type WriteTransaction } from '../repositories/write-transaction.js';
import { ApiError } from './errors.js';
import { getHelper } from './helper-profiles.js';
import { authorizationsOf } from './oauth-grants.js';
import { type Actor, type AuditFilter, audit, auditLog, roleAllows } from './operators.js';

export { roleAllows };

/** A console session ends after this long without a request (then the operator signs in again). */
export const CONSOLE_IDLE_MINUTES = 30;

/** Destructive actions (suspend, restore, erase, remove an operator) need a sign-in at most this old. */
export const REAUTH_MINUTES = 10;

export type QueueName = 'key_requests' | 'verifications' | 'reports' | 'appeals' | 'claims';

/** Which role a queue needs: support sees key requests and verifications, moderators also decide reports, appeals and claims. */
export const QUEUE_ROLE: Record<QueueName, OperatorRole> = {
  key_requests: 'support',
  verifications: 'support',
  reports: 'moderator',
  appeals: 'moderator',
  claims: 'moderator',
};

const FIGURES: Record<QueueName, (db: WriteContext['db']) => Promise<QueueFigure>> = {
  key_requests: keyRequestQueue,
  verifications: verificationQueue,
  reports: reportQueue,
  appeals: appealQueue,
  claims: claimQueue,
};

/** The operator behind an account, or undefined: the console's door. */
export function operatorOf(db: WriteContext['db'], accountId: string): Promise<OperatorRow | undefined> {
  return findOperator(db, accountId);
}

/** The queues the role sees, with how many wait and since when. */
export async function queueFigures(
  db: WriteContext['db'],
  role: OperatorRole,
): Promise<{ queue: QueueName; figure: QueueFigure }[]> {
  const shown = (Object.keys(QUEUE_ROLE) as QueueName[]).filter((queue) => roleAllows(role, QUEUE_ROLE[queue]));
  return Promise.all(shown.map(async (queue) => ({ queue, figure: await FIGURES[queue](db) })));
}

/** The audit log for the console (admins), newest last, at most `limit` entries. */
export function auditPage(db: WriteContext['db'], filter: AuditFilter, limit = 200) {
  return auditLog(db, filter, limit);
}

type Db = WriteContext['db'];

/** The pending key requests, oldest first. */
export const keyRequests = (db: Db) => listPendingRequests(db);

/** The pending verification requests, oldest first. */
export const verifications = (db: Db) => listPendingVerifications(db);

/** A verification request with the helper's public profile and every earlier request of the helper. */
export async function verificationFile(db: Db, id: string) {
  const verification = await findVerification(db, id);
  if (!verification) return undefined;
  const helperId = verification.helper_id;
  const [helper, history] = helperId
    ? await Promise.all([
        getHelper(db, helperId).catch((error: unknown) => {
          // A profile removed by moderation is not public any more (404): the page says so.
          if (error instanceof ApiError && error.status === 404) return undefined;
          throw error;
        }),
        verificationsOfHelper(db, helperId),
      ])
    : [undefined, []];
  return { verification, helper, history: history.filter((row) => row.id !== id) };
}

/** The received reports, oldest first. */
export const reports = (db: Db) => receivedReports(db);

export interface ReportFile {
  report: ReportRow;
  /** What the item said when it was reported (null: filed before snapshots were kept, or erased since). */
  evidence: ReportSnapshot | null;
  /** The account the item belongs to, when it has one. */
  owner: string | null;
  /** Earlier decisions about the same account, newest first. */
  earlier: DecisionRow[];
}

export async function reportFile(db: Db, id: string): Promise<ReportFile | undefined> {
  const report = await findReport(db, id);
  if (!report) return undefined;
  const evidence = parseReportSnapshot(report.snapshot);
  // Reports filed before migration 0032 name no account: their item's owner, as it is now.
  const owner = report.about_account_id ?? (await itemOwner(db, { type: report.about_type, id: report.about_id }));
  const earlier = owner ? (await accountDecisions(db, owner, 20, 0)).rows : [];
  return { report, evidence, owner, earlier };
}

/** Writes an operator's read of a private conversation to the audit log: what pointed at it, and why. */
function recordPrivateRead(
  trx: WriteTransaction,
  actor: Actor,
  pointer: { type: 'report' | 'claim'; id: string; why: string },
  details: Record<string, unknown>,
  now: Date,
) {
  return audit(
    trx,
    actor,
    {
      action: 'private.read',
      targetType: pointer.type,
      targetId: pointer.id,
      reason: `${pointer.why}; it was read to decide it.`,
      details,
    },
    now,
  );
}

/**
 * The conversation a reported message belongs to: private, so read only on the operator's asking,
 * and the read written to the audit log before anything is shown (in one transaction).
 */
export async function readReportedConversation(context: WriteContext, reportId: string, actor: Actor) {
  return inWriteTransaction(context, async (trx) => {
    const report = await findReport(trx, reportId);
    if (report?.about_type !== 'message') return undefined;
    const messages = await conversationOfMessage(trx, report.about_id);
    await recordPrivateRead(
      trx,
      actor,
      { type: 'report', id: report.id, why: 'The report points at a private message' },
      { message: report.about_id, messages: messages.length },
      context.now,
    );
    return messages;
  });
}

/** The pending appeals, oldest first. */
export const appeals = (db: Db) => pendingAppealRows(db);

export interface AppealFile {
  appeal: AppealRow;
  decision: DecisionRow;
  report: ReportRow | undefined;
  evidence: ReportSnapshot | null;
}

export async function appealFile(db: Db, id: string): Promise<AppealFile | undefined> {
  const appeal = await findAppeal(db, id);
  const decision = appeal && (await findDecision(db, appeal.decision_id));
  if (!appeal || !decision) return undefined;
  const report = decision.report_id ? await findReport(db, decision.report_id) : undefined;
  const evidence = report ? parseReportSnapshot(report.snapshot) : null;
  return { appeal, decision, report, evidence };
}

/**
 * Four eyes (issue 33): an appeal is decided by another operator than the one who took the
 * decision appealed. The admin command (`cli`) has no person behind it and is not checked.
 */
export const mayDecideAppeal = (file: AppealFile, actor: Actor): boolean =>
  actor === 'cli' || (file.decision.decided_by !== actor.accountId && file.appeal.account_id !== actor.accountId);

/**
 * The conversation of a claim's two parties about the booking's listing or the booking: private,
 * read only on the operator's asking, the read written to the audit log first (one transaction).
 */
export async function readClaimConversation(context: WriteContext, claimId: string, actor: Actor) {
  return inWriteTransaction(context, async (trx) => {
    const claim = await findClaim(trx, claimId);
    const booking = claim && (await bookingOfClaim(trx, claim.booking_id));
    if (!claim || !booking) return undefined;
    const messages = await conversationOfParties(
      trx,
      [
        { type: 'listing', id: booking.listing_id },
        { type: 'booking', id: booking.id },
      ],
      claim.owner_account_id,
      claim.renter_account_id,
    );
    await recordPrivateRead(
      trx,
      actor,
      { type: 'claim', id: claim.id, why: 'The claim points at the conversation of its two parties' },
      { booking: booking.id, messages: messages.length },
      context.now,
    );
    return messages;
  });
}

/** The disputed claims, oldest first. */
export const disputedClaims = (db: Db) => claimsIn(db, ['disputed']);

export interface ClaimFile {
  claim: ClaimRow;
  photos: string[];
  booking: Awaited<ReturnType<typeof bookingOfClaim>>;
  payments: Awaited<ReturnType<typeof paymentsOfBooking>>;
}

export async function claimFile(db: Db, id: string): Promise<ClaimFile | undefined> {
  const claim = await findClaim(db, id);
  if (!claim) return undefined;
  const [booking, payments] = await Promise.all([
    bookingOfClaim(db, claim.booking_id),
    paymentsOfBooking(db, claim.booking_id),
  ]);
  let photos: string[] = [];
  try {
    const parsed: unknown = JSON.parse(claim.photos);
    if (Array.isArray(parsed)) photos = parsed.filter((url): url is string => typeof url === 'string');
  } catch {
    photos = [];
  }
  return { claim, photos, booking, payments };
}

/** Accounts matching what the operator typed (an id, or part of an e-mail or name); at most 25. */
export function findAccounts(db: Db, text: string) {
  return searchAccounts(db, text, 25);
}

export interface AccountFile {
  account: AccountRow;
  objects: Awaited<ReturnType<typeof accountObjects>>;
  keys: Awaited<ReturnType<typeof keysOfAccount>>;
  grants: Awaited<ReturnType<typeof authorizationsOf>>;
  decisions: DecisionRow[];
  /** Reports about the account's items, newest first (at most 20). */
  reports: Awaited<ReturnType<typeof reportsAboutAccount>>;
  operator: OperatorRow | undefined;
}

/** An account with its objects, keys, app grants, the decisions about it and its operator role. */
export async function accountFile(db: Db, id: string, now: Date): Promise<AccountFile | undefined> {
  const account = await findAccount(db, id);
  if (!account) return undefined;
  const [objects, keys, grants, decisions, reports, operator] = await Promise.all([
    accountObjects(db, id),
    keysOfAccount(db, id),
    authorizationsOf(db, id, now),
    accountDecisions(db, id, 50, 0),
    reportsAboutAccount(db, id, 20),
    findOperator(db, id),
  ]);
  return { account, objects, keys, grants, decisions: decisions.rows, reports, operator };
}

/** The types the console's pages name. */
export type {
  AccountRow,
  AppealRow,
  AuditLogRow,
  ClaimRow,
  DecisionRow,
  OperatorRole,
  QueueFigure,
  ReportRow,
  ReportSnapshot,
};
