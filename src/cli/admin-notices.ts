import { publicBaseUrl } from '../config.js';
import type { ModerationAction } from '../db/schema.js';
import { describeDelivery } from '../mail/mailer.js';
import { reportOutcomeEmail } from '../mail/report-outcome-email.js';
import { pendingAppeals, receivedReports } from '../repositories/notices.js';
import { decideAppeal, decideReport } from '../services/notices.js';
import type { AdminContext } from './admin-context.js';
import { printable } from './admin-requests.js';

const MAX_EXPLANATION = 2000;
const context = (ctx: AdminContext) => ({ db: ctx.db, now: ctx.now, claim: null });

function explanationOf(text: string | undefined, command: string): string {
  const value = text?.trim() ?? '';
  if (!value) throw new Error(`${command} needs --explanation "..." (the statement of reasons the account reads).`);
  if (value.length > MAX_EXPLANATION) throw new Error(`--explanation must be at most ${MAX_EXPLANATION} characters.`);
  return value;
}

/** `reports list`: received reports, oldest first. */
export async function listReports(ctx: AdminContext): Promise<void> {
  const reports = await receivedReports(ctx.db);
  if (reports.length === 0) {
    ctx.out('No reports waiting.');
    return;
  }
  ctx.out(`${reports.length} report${reports.length === 1 ? '' : 's'} waiting, oldest first.`);
  for (const report of reports) {
    ctx.out('');
    ctx.out(
      `${report.id}  filed ${report.created_at}  ${report.about_type} ${report.about_id}  reason ${report.reason}`,
    );
    ctx.out(`  ${printable(report.explanation)}`);
  }
}

/** `reports decide <rpt_id> --action A --ground G --explanation "..."`: decided, applied, the account and reporter told. */
export async function decideReportCommand(
  ctx: AdminContext,
  id: string,
  options: { action?: string; ground?: string; explanation?: string },
): Promise<void> {
  const explanation = explanationOf(options.explanation, 'reports decide');
  if (!options.action)
    throw new Error('reports decide needs --action remove|restrict_visibility|suspend_account|no_action.');
  if (!options.ground) throw new Error('reports decide needs --ground legal|terms.');
  const { report, decision } = await decideReport(context(ctx), id, {
    action: options.action as ModerationAction,
    ground: options.ground as 'legal' | 'terms',
    explanation,
  });
  ctx.out(
    `Decided ${id}: ${decision.action} (${decision.ground}) of ${decision.about_type} ${decision.about_id}; decision ${decision.id}.`,
  );
  if (!report.reporter_email) return;
  const message = reportOutcomeEmail({
    to: report.reporter_email,
    reportId: report.id,
    about: `${report.about_type} ${report.about_id}`,
    action: decision.action,
    explanation,
    baseUrl: publicBaseUrl(ctx.config),
  });
  try {
    ctx.out(`The reporter's notice was ${describeDelivery(await ctx.mailer.send(message))}.`);
  } catch (error) {
    ctx.note(`Warning: the decision stands, but the notice to the reporter could not be sent (${String(error)}).`);
  }
}

/** `appeals list`: pending appeals, oldest first. */
export async function listAppeals(ctx: AdminContext): Promise<void> {
  const appeals = await pendingAppeals(ctx.db);
  if (appeals.length === 0) {
    ctx.out('No appeals waiting.');
    return;
  }
  ctx.out(`${appeals.length} appeal${appeals.length === 1 ? '' : 's'} waiting, oldest first.`);
  for (const appeal of appeals) {
    ctx.out('');
    ctx.out(`${appeal.id}  filed ${appeal.created_at}  against ${appeal.decision_id}  by ${appeal.account_id}`);
    ctx.out(`  ${printable(appeal.text)}`);
  }
}

/** `appeals decide <apl_id> --uphold|--reverse --explanation "..."`. */
export async function decideAppealCommand(
  ctx: AdminContext,
  id: string,
  options: { uphold?: boolean; reverse?: boolean; explanation?: string },
): Promise<void> {
  if (Boolean(options.uphold) === Boolean(options.reverse))
    throw new Error('appeals decide needs one of --uphold or --reverse.');
  const explanation = explanationOf(options.explanation, 'appeals decide');
  const outcome = options.reverse ? 'reversed' : 'upheld';
  const { decision } = await decideAppeal(context(ctx), id, outcome, explanation);
  ctx.out(
    `Appeal ${id} ${outcome}: decision ${decision.id} ${outcome === 'reversed' ? `reversed; ${decision.about_type} ${decision.about_id} is back` : 'stands'}.`,
  );
}
