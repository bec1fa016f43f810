import { timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow, ModerationAction } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { median } from '../domain/median.js';
import { randomBase62, sha256Hex } from '../domain/secrets.js';
import { categoriesOfHelpers } from '../repositories/helper-availability.js';
import {
  type About,
  type AppealRow,
  accountDecisions,
  appealsOf,
  applyModeration,
  type DecisionRow,
  findAppeal,
  findDecision,
  findReport,
  insertAppeal,
  insertReport,
  itemOwner,
  type ReportRow,
  recordDecision,
  reportedItem,
  setAppealOutcome,
  transparencyRows,
  undoModeration,
  visibleItemOwner,
} from '../repositories/notices.js';
import { recordEvent } from '../repositories/outbox.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import {
  type Appeal,
  MODERATION_ACTIONS,
  MODERATION_GROUNDS,
  type ModerationDecision,
  REPORT_REASONS,
  type Report,
  type ReportBody,
  type Transparency,
} from '../schemas/notices.js';
import { ApiError } from './errors.js';
import { type Actor, audit, OperatorError } from './operators.js';

/** Appeals are open this long after a decision (DSA Art. 20(1): at least six months). */
export const APPEAL_MONTHS = 6;
const REPORT_TOKEN_PREFIX = 'rtk_';

function notVisible(about: About): ApiError {
  return new ApiError(404, 'not_found', `No ${about.type} you can see has the id '${about.id}'.`, {
    param: 'about.id',
    suggestion:
      'Report what you can see: a public job, listing, helper or published review, or a message of your own conversations.',
  });
}

function reportNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No report '${id}' is yours to read.`, {
    param: 'id',
    suggestion: 'Send the report_token the report was answered with as X-Report-Token, or the key that filed it.',
  });
}

function reportOf(row: ReportRow, decision: DecisionRow | undefined): Report {
  return {
    id: row.id,
    about: { type: row.about_type, id: row.about_id },
    reason: row.reason as Report['reason'],
    status: row.status,
    created_at: row.created_at,
    outcome: decision
      ? {
          action: decision.action,
          ground: decision.ground,
          explanation: decision.explanation,
          decided_at: decision.created_at,
        }
      : null,
  };
}

/**
 * Files a notice (DSA Art. 16) about something the caller can see; anyone may, anonymous callers
 * too (their budget is counted by the route). The answer holds the report token, shown this once.
 * In the same transaction the report keeps what the item says now (its snapshot, never answered by
 * the API) and whose it is, the evidence a decision rests on after the item changed or went.
 */
export async function fileReport(context: WriteContext, caller: AccountRow | null, body: ReportBody): Promise<Report> {
  const about = { type: body.about.type, id: body.about.id };
  if (!(await visibleItemOwner(context.db, about, caller?.id ?? null))) throw notVisible(about);
  const token = `${REPORT_TOKEN_PREFIX}${randomBase62(32)}`;
  const fields: Omit<ReportRow, 'snapshot' | 'about_account_id'> = {
    id: newId('rpt'),
    about_type: about.type,
    about_id: about.id,
    reason: body.reason,
    explanation: body.explanation,
    reporter_email: body.reporter_email ?? null,
    reporter_account_id: caller?.id ?? null,
    token_hash: sha256Hex(token),
    status: 'received',
    decision_id: null,
    created_at: context.now.toISOString(),
    decided_at: null,
  };
  const row = await inWriteTransaction(context, async (trx) => {
    const categories = about.type === 'helper' ? (await categoriesOfHelpers(trx, [about.id])).get(about.id) : [];
    const item = await reportedItem(trx, about, categories);
    if (!item) throw notVisible(about);
    const stored: ReportRow = { ...fields, snapshot: JSON.stringify(item.snapshot), about_account_id: item.accountId };
    await insertReport(trx, stored);
    return stored;
  });
  return { ...reportOf(row, undefined), report_token: token };
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A report for its reporter: by its token, or by the key that filed it; 404 for anyone else. */
export async function readReport(
  db: Queryable,
  id: string,
  token: string | null,
  caller: AccountRow | null,
): Promise<Report> {
  const row = await findReport(db, id);
  const byToken = row && token !== null && sameHash(sha256Hex(token), row.token_hash);
  const byKey = row && caller !== null && row.reporter_account_id === caller.id;
  if (!row || !(byToken || byKey)) throw reportNotFound(id);
  const decision = row.decision_id ? await findDecision(db, row.decision_id) : undefined;
  return reportOf(row, decision);
}

function addMonths(iso: string, months: number): Date {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date;
}

function appealOf(row: AppealRow): Appeal {
  return {
    id: row.id,
    decision_id: row.decision_id,
    text: row.text,
    status: row.status,
    created_at: row.created_at,
    decided_at: row.decided_at,
    explanation: row.explanation,
  };
}

/** The statement of reasons (DSA Art. 17) of a decision, as the affected account reads it. */
export function statementOf(row: DecisionRow, appeal: AppealRow | undefined, baseUrl = ''): ModerationDecision {
  return {
    id: row.id,
    about: { type: row.about_type, id: row.about_id },
    action: row.action,
    ground: row.ground,
    explanation: row.explanation,
    automated: Number(row.automated) === 1,
    prompted_by_report: row.report_id !== null,
    created_at: row.created_at,
    reversed_at: row.reversed_at,
    redress: {
      appeal_until: addMonths(row.created_at, APPEAL_MONTHS).toISOString(),
      appeal: `POST ${baseUrl}/v1/me/moderation-decisions/${row.id}/appeals`,
      out_of_court:
        'A dispute settlement body certified under Art. 21 DSA (the list of the EU Commission, or the Bundesnetzagentur as Digital Services Coordinator for Germany).',
      court: 'The courts at your place of residence; appealing here first is not required.',
    },
    appeal: appeal ? appealOf(appeal) : null,
  };
}

export interface DecideInput {
  action: ModerationAction;
  ground: 'legal' | 'terms';
  explanation: string;
}

/**
 * Decides a received report (the admin command): the decision with its statement of reasons, its
 * action taken at once, the report marked decided, and the affected account told by a private
 * event (moderation.decided). Returns the report and decision for the reporter's e-mail.
 */
export async function decideReport(
  context: WriteContext,
  reportId: string,
  input: DecideInput,
  actor: Actor = 'cli',
): Promise<{ report: ReportRow; decision: DecisionRow }> {
  if (!MODERATION_ACTIONS.includes(input.action))
    throw new OperatorError(`--action must be one of ${MODERATION_ACTIONS.join(', ')}.`);
  if (!MODERATION_GROUNDS.includes(input.ground))
    throw new OperatorError(`--ground must be one of ${MODERATION_GROUNDS.join(', ')}.`);
  return inWriteTransaction(context, async (trx) => {
    const report = await findReport(trx, reportId);
    if (!report) throw new OperatorError(`No report ${reportId}.`);
    if (report.status !== 'received')
      throw new OperatorError(`Report ${reportId} was decided already (${report.decided_at}).`);
    const about = { type: report.about_type, id: report.about_id };
    const owner = await itemOwner(trx, about);
    if (actor !== 'cli' && owner === actor.accountId) {
      throw new OperatorError('This report is about your own content; another operator decides it.');
    }
    if (input.action === 'suspend_account' && !owner) {
      throw new OperatorError(`${about.type} ${about.id} belongs to no account to suspend.`);
    }
    const at = context.now.toISOString();
    const decision: DecisionRow = {
      id: newId('mod'),
      report_id: report.id,
      about_type: about.type,
      about_id: about.id,
      account_id: owner,
      action: input.action,
      ground: input.ground,
      explanation: input.explanation,
      automated: 0,
      status_before: null,
      created_at: at,
      reversed_at: null,
      decided_by: actor === 'cli' ? 'cli' : actor.accountId,
    };
    decision.status_before = await applyModeration(trx, about, owner, input.action, context.now);
    if (!(await recordDecision(trx, decision))) {
      throw new OperatorError(`Report ${reportId} was decided by someone else a moment ago.`);
    }
    if (owner && input.action !== 'no_action') {
      await recordEvent(
        trx,
        {
          type: 'moderation.decided',
          subjectId: decision.id,
          place: null,
          audience: [owner],
          data: statementOf(decision, undefined),
        },
        context.now,
      );
    }
    await audit(
      trx,
      actor,
      {
        action: 'report.decided',
        targetType: 'report',
        targetId: report.id,
        reason: input.explanation,
        details: { decision: decision.id, action: input.action, ground: input.ground, about: about },
      },
      context.now,
    );
    return { report: { ...report, status: 'decided', decided_at: at, decision_id: decision.id }, decision };
  });
}

function decisionNotFound(id: string): ApiError {
  return new ApiError(404, 'not_found', `No decision '${id}' concerns your account.`, {
    param: 'id',
    suggestion: 'GET /v1/me/moderation-decisions lists those that do.',
  });
}

export async function myDecisions(
  db: Queryable,
  account: AccountRow,
  limit: number,
  offset: number,
): Promise<{ data: ModerationDecision[]; total: number; limit: number; offset: number }> {
  const { rows, total } = await accountDecisions(db, account.id, limit, offset);
  const appeals = new Map(
    (
      await appealsOf(
        db,
        rows.map((r) => r.id),
      )
    ).map((a) => [a.decision_id, a]),
  );
  return { data: rows.map((row) => statementOf(row, appeals.get(row.id))), total, limit, offset };
}

async function ownDecision(db: Queryable, account: AccountRow, id: string): Promise<DecisionRow> {
  const row = await findDecision(db, id);
  if (!row || row.account_id !== account.id || row.action === 'no_action') throw decisionNotFound(id);
  return row;
}

export async function myDecision(db: Queryable, account: AccountRow, id: string): Promise<ModerationDecision> {
  const row = await ownDecision(db, account, id);
  const [appeal] = await appealsOf(db, [row.id]);
  return statementOf(row, appeal);
}

/** An appeal (DSA Art. 20) of the affected account: one per decision, within APPEAL_MONTHS. */
export async function fileAppeal(
  context: WriteContext,
  account: AccountRow,
  decisionId: string,
  text: string,
): Promise<Appeal> {
  const decision = await ownDecision(context.db, account, decisionId);
  const until = addMonths(decision.created_at, APPEAL_MONTHS);
  const refuse = (message: string, suggestion: string) =>
    new ApiError(409, 'appeal_not_allowed', message, { param: 'id', suggestion });
  if (decision.reversed_at !== null) throw refuse('This decision was reversed already.', 'Nothing is left to appeal.');
  if (context.now > until) {
    throw refuse(
      `Appeals of this decision were possible until ${until.toISOString()}.`,
      'Out-of-court dispute settlement (Art. 21 DSA) and the courts remain open to you.',
    );
  }
  const row: AppealRow = {
    id: newId('apl'),
    decision_id: decision.id,
    account_id: account.id,
    text,
    status: 'pending',
    created_at: context.now.toISOString(),
    decided_at: null,
    explanation: null,
  };
  await inWriteTransaction(context, async (trx) => {
    // Thrown in the transaction: the refusal commits nothing, not even the key's mark.
    if (!(await insertAppeal(trx, row))) {
      throw refuse(
        'This decision was appealed already; one appeal per decision.',
        `GET /v1/me/moderation-decisions/${decision.id} shows its state.`,
      );
    }
  });
  return appealOf(row);
}

/**
 * Decides an appeal (the admin command): upheld keeps the decision; reversed undoes its action at
 * once (the item is back, the account unsuspended). The account is told by a private event.
 */
export async function decideAppeal(
  context: WriteContext,
  appealId: string,
  outcome: 'upheld' | 'reversed',
  explanation: string,
  actor: Actor = 'cli',
): Promise<{ appeal: AppealRow; decision: DecisionRow }> {
  return inWriteTransaction(context, async (trx) => {
    const appeal = await findAppeal(trx, appealId);
    if (!appeal) throw new OperatorError(`No appeal ${appealId}.`);
    if (appeal.status !== 'pending')
      throw new OperatorError(`Appeal ${appealId} was decided already (${appeal.status}).`);
    const decision = await findDecision(trx, appeal.decision_id);
    if (!decision) throw new OperatorError(`The decision ${appeal.decision_id} is gone.`);
    // Four eyes: an operator never decides the appeal of their own decision (the command has no person to check).
    if (actor !== 'cli' && decision.decided_by === actor.accountId) {
      throw new OperatorError('You took the decision appealed; another operator decides the appeal (four eyes).');
    }
    if (actor !== 'cli' && appeal.account_id === actor.accountId) {
      throw new OperatorError('This is your own appeal; another operator decides it.');
    }
    const at = context.now.toISOString();
    if (!(await setAppealOutcome(trx, appeal.id, outcome, at, explanation))) {
      throw new OperatorError(`Appeal ${appealId} was decided by someone else a moment ago.`);
    }
    if (outcome === 'reversed') await undoModeration(trx, decision, context.now);
    const decided = { ...appeal, status: outcome, decided_at: at, explanation };
    const current = { ...decision, reversed_at: outcome === 'reversed' ? at : decision.reversed_at };
    await recordEvent(
      trx,
      {
        type: 'moderation.decided',
        subjectId: appeal.id,
        place: null,
        audience: [appeal.account_id],
        data: statementOf(current, decided),
      },
      context.now,
    );
    await audit(
      trx,
      actor,
      {
        action: 'appeal.decided',
        targetType: 'appeal',
        targetId: appeal.id,
        reason: explanation,
        details: { outcome, decision: decision.id },
      },
      context.now,
    );
    return { appeal: decided, decision: current };
  });
}

/** The median, rounded to two decimals (hours). */
function medianHours(values: number[]): number | null {
  const value = median(values);
  return value === null ? null : Math.round(value * 100) / 100;
}

/** The last 12 months (UTC) of notices, decisions and appeals, counted from the stored rows at each call. */
export async function transparency(db: Queryable, now: Date): Promise<Transparency> {
  const months: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  const since = `${months[months.length - 1]}-01T00:00:00.000Z`;
  const rows = await transparencyRows(db, since);
  const zero = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>;
  return {
    generated_at: now.toISOString(),
    months: months.map((month) => {
      const of = (iso: string | null) => iso?.startsWith(month) === true;
      const notices = zero(REPORT_REASONS);
      for (const r of rows.reports)
        if (of(r.created_at) && r.reason in notices) notices[r.reason] = (notices[r.reason] ?? 0) + 1;
      const decisions = zero(MODERATION_ACTIONS);
      const grounds = zero(MODERATION_GROUNDS);
      for (const d of rows.decisions) {
        if (!of(d.created_at)) continue;
        decisions[d.action] = (decisions[d.action] ?? 0) + 1;
        grounds[d.ground] = (grounds[d.ground] ?? 0) + 1;
      }
      const hours = rows.decided
        .filter((r) => of(r.decided_at))
        .map((r) => (Date.parse(r.decided_at as string) - Date.parse(r.created_at)) / 3_600_000);
      return {
        month,
        notices: notices as Transparency['months'][number]['notices'],
        decisions: decisions as Transparency['months'][number]['decisions'],
        decisions_by_ground: grounds as Transparency['months'][number]['decisions_by_ground'],
        median_hours_to_decision: medianHours(hours),
        appeals: rows.appeals.filter((a) => of(a.created_at)).length,
        reversals: rows.decisions.filter((d) => of(d.reversed_at)).length,
      };
    }),
  };
}
