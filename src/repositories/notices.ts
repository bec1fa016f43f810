import type { Queryable } from '../db/queryable.js';
import type {
  AppealsTable,
  DecisionAbout,
  ModerationAction,
  ModerationDecisionsTable,
  ReportAbout,
  ReportSnapshot,
  ReportsTable,
} from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import { reportSnapshot as snapshotOf } from '../domain/report-snapshot.js';
import { parsePhotos } from './mappers.js';
import type { WriteTransaction } from './write-transaction.js';

export type ReportRow = ReportsTable;
export type DecisionRow = Omit<ModerationDecisionsTable, 'automated'> & { automated: number };
export type AppealRow = AppealsTable;

export interface About {
  type: ReportAbout;
  id: string;
}

/** What a decision is about: a reported item, or an account (a suspension from the console). */
export interface DecisionSubject {
  type: DecisionAbout;
  id: string;
}

/**
 * The account behind a reportable item, when `viewer` (null: anonymous) can see it: public jobs,
 * listings and helper profiles not removed, reviews published (or the viewer's own), messages of
 * the viewer's conversations. undefined: not visible (as unknown); null account: seeded content.
 */
export async function visibleItemOwner(
  db: Queryable,
  about: About,
  viewer: string | null,
): Promise<{ accountId: string | null } | undefined> {
  switch (about.type) {
    case 'job': {
      const row = await db
        .selectFrom('jobs')
        .select(['owner_account_id', 'status'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      return row && row.status !== 'removed' ? { accountId: row.owner_account_id } : undefined;
    }
    case 'listing': {
      const row = await db
        .selectFrom('listings')
        .innerJoin('owners', 'owners.id', 'listings.owner_id')
        .select(['owners.account_id', 'listings.status'])
        .where('listings.id', '=', about.id)
        .executeTakeFirst();
      return row && row.status !== 'removed' ? { accountId: row.account_id } : undefined;
    }
    case 'helper': {
      const row = await db
        .selectFrom('helpers')
        .select(['account_id', 'removed_at'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      return row && row.removed_at === null ? { accountId: row.account_id } : undefined;
    }
    case 'review': {
      const row = await db
        .selectFrom('reviews')
        .select(['author_account_id', 'reviewed_account_id', 'published_at', 'removed_at'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      if (!row || row.removed_at !== null) return undefined;
      const party = viewer !== null && (row.author_account_id === viewer || row.reviewed_account_id === viewer);
      return row.published_at !== null || party ? { accountId: row.author_account_id } : undefined;
    }
    case 'message': {
      const row = await db
        .selectFrom('messages')
        .select(['sender_account_id', 'recipient_account_id', 'removed_at'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      const party = viewer !== null && row && (row.sender_account_id === viewer || row.recipient_account_id === viewer);
      return row && party && row.removed_at === null ? { accountId: row.sender_account_id } : undefined;
    }
  }
}

/**
 * The reported item as its public view shows it now, whatever its state, and its account (null:
 * seeded content): what a report keeps as its snapshot (domain/report-snapshot.ts). Never the exact
 * place, the owner's name or any other private field. undefined: no such item.
 */
export async function reportedItem(
  db: Queryable,
  about: About,
  /** A helper profile's categories (its skills), which the service reads beside it. */
  helperCategories: readonly Category[] = [],
): Promise<{ accountId: string | null; snapshot: ReportSnapshot } | undefined> {
  const place = ['city', 'plz', 'district'] as const;
  switch (about.type) {
    case 'job': {
      const row = await db
        .selectFrom('jobs')
        .select(['owner_account_id', 'title', 'description', 'category', 'price_cents', 'photos', ...place])
        .where('id', '=', about.id)
        .executeTakeFirst();
      if (!row) return undefined;
      const { owner_account_id: accountId, photos, ...job } = row;
      return { accountId, snapshot: snapshotOf({ type: 'job', ...job, photos: parsePhotos(photos) }) };
    }
    case 'listing': {
      const row = await db
        .selectFrom('listings')
        .innerJoin('owners', 'owners.id', 'listings.owner_id')
        .select([
          'owners.account_id',
          'listings.title',
          'listings.description',
          'listings.category',
          'listings.condition',
          'listings.price_per_day_cents',
          'listings.photos',
          'listings.city',
          'listings.plz',
          'listings.district',
        ])
        .where('listings.id', '=', about.id)
        .executeTakeFirst();
      if (!row) return undefined;
      const { account_id: accountId, photos, ...listing } = row;
      return { accountId, snapshot: snapshotOf({ type: 'listing', ...listing, photos: parsePhotos(photos) }) };
    }
    case 'helper': {
      const row = await db
        .selectFrom('helpers')
        .select(['account_id', 'display_name', 'bio', 'hourly_rate_cents', ...place])
        .where('id', '=', about.id)
        .executeTakeFirst();
      if (!row) return undefined;
      const { account_id: accountId, ...helper } = row;
      return { accountId, snapshot: snapshotOf({ type: 'helper', ...helper, categories: [...helperCategories] }) };
    }
    case 'review': {
      const row = await db
        .selectFrom('reviews')
        .select(['author_account_id', 'rating', 'text'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        accountId: row.author_account_id,
        snapshot: snapshotOf({ type: 'review', rating: row.rating, text: row.text }),
      };
    }
    case 'message': {
      const row = await db
        .selectFrom('messages')
        .select(['sender_account_id', 'text', 'created_at'])
        .where('id', '=', about.id)
        .executeTakeFirst();
      if (!row) return undefined;
      const snapshot = snapshotOf({
        type: 'message',
        sender_account_id: row.sender_account_id,
        text: row.text,
        sent_at: row.created_at,
      });
      return { accountId: row.sender_account_id, snapshot };
    }
  }
}

export async function insertReport(trx: WriteTransaction, row: ReportRow): Promise<void> {
  await trx.insertInto('reports').values(row).execute();
}

export function findReport(db: Queryable, id: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function receivedReports(db: Queryable): Promise<ReportRow[]> {
  return db
    .selectFrom('reports')
    .selectAll()
    .where('status', '=', 'received')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findDecision(db: Queryable, id: string): Promise<DecisionRow | undefined> {
  return db.selectFrom('moderation_decisions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The decisions that restricted the account or its content (no_action ones are the reporter's answer only). */
function decisionsOf(db: Queryable, accountId: string) {
  return db.selectFrom('moderation_decisions').where('account_id', '=', accountId).where('action', '<>', 'no_action');
}

export async function accountDecisions(
  db: Queryable,
  accountId: string,
  limit: number,
  offset: number,
): Promise<{ rows: DecisionRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    decisionsOf(db, accountId)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    decisionsOf(db, accountId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

export function appealsOf(db: Queryable, decisionIds: readonly string[]): Promise<AppealRow[]> {
  if (decisionIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('appeals').selectAll().where('decision_id', 'in', decisionIds).execute();
}

export function pendingAppeals(db: Queryable): Promise<AppealRow[]> {
  return db
    .selectFrom('appeals')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findAppeal(db: Queryable, id: string): Promise<AppealRow | undefined> {
  return db.selectFrom('appeals').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAppeal(trx: WriteTransaction, row: AppealRow): Promise<boolean> {
  const inserted = await trx
    .insertInto('appeals')
    .values(row)
    .onConflict((conflict) => conflict.column('decision_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Deletes the public events about a subject (and their deliveries): a removed item leaves the streams' replay too. */
async function forgetPublicEvents(trx: WriteTransaction, subjectId: string): Promise<void> {
  const events = trx
    .selectFrom('events')
    .select('id')
    .where('subject_id', '=', subjectId)
    .where('audience', 'is', null);
  await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', events).execute();
  await trx.deleteFrom('events').where('subject_id', '=', subjectId).where('audience', 'is', null).execute();
}

/**
 * Applies a decision's action; returns what a reversal restores (a job's or listing's status, a
 * helper's availability), or null. remove and restrict_visibility take the item out of every
 * public read: jobs and listings become `removed` (no search, count, booking or application sees
 * them), helper profiles, reviews and messages get `removed_at`; suspend_account marks the account.
 */
export async function applyModeration(
  trx: WriteTransaction,
  about: DecisionSubject,
  accountId: string | null,
  action: ModerationAction,
  now: Date,
): Promise<string | null> {
  const at = now.toISOString();
  if (action === 'no_action') return null;
  if (action === 'suspend_account') {
    if (accountId !== null)
      await trx.updateTable('accounts').set({ suspended_at: at }).where('id', '=', accountId).execute();
    return null;
  }
  switch (about.type) {
    case 'job': {
      const row = await trx.selectFrom('jobs').select('status').where('id', '=', about.id).executeTakeFirstOrThrow();
      await trx.updateTable('jobs').set({ status: 'removed', updated_at: at }).where('id', '=', about.id).execute();
      await forgetPublicEvents(trx, about.id);
      return row.status;
    }
    case 'listing': {
      const row = await trx
        .selectFrom('listings')
        .select('status')
        .where('id', '=', about.id)
        .executeTakeFirstOrThrow();
      await trx.updateTable('listings').set({ status: 'removed', updated_at: at }).where('id', '=', about.id).execute();
      await forgetPublicEvents(trx, about.id);
      return row.status;
    }
    case 'helper': {
      const row = await trx
        .selectFrom('helpers')
        .select('available')
        .where('id', '=', about.id)
        .executeTakeFirstOrThrow();
      await trx.updateTable('helpers').set({ removed_at: at, available: 0 }).where('id', '=', about.id).execute();
      return String(row.available);
    }
    case 'review':
      await trx.updateTable('reviews').set({ removed_at: at }).where('id', '=', about.id).execute();
      return null;
    case 'message':
      await trx.updateTable('messages').set({ removed_at: at }).where('id', '=', about.id).execute();
      return null;
    case 'account':
      // An account is only ever suspended (above); there is no item to take out of reads.
      return null;
  }
}

/** Undoes a decision's action (an appeal reversed it): the item is back as it was. */
export async function undoModeration(trx: WriteTransaction, decision: DecisionRow, now: Date): Promise<void> {
  const about = { type: decision.about_type, id: decision.about_id };
  await trx
    .updateTable('moderation_decisions')
    .set({ reversed_at: now.toISOString() })
    .where('id', '=', decision.id)
    .execute();
  if (decision.action === 'no_action') return;
  if (decision.action === 'suspend_account') {
    if (decision.account_id !== null) {
      await trx.updateTable('accounts').set({ suspended_at: null }).where('id', '=', decision.account_id).execute();
    }
    return;
  }
  const before = decision.status_before;
  switch (about.type) {
    case 'job':
      await trx
        .updateTable('jobs')
        .set({ status: (before ?? 'open') as never, updated_at: now.toISOString() })
        .where('id', '=', about.id)
        .execute();
      return;
    case 'listing':
      await trx
        .updateTable('listings')
        .set({ status: (before ?? 'available') as never, updated_at: now.toISOString() })
        .where('id', '=', about.id)
        .execute();
      return;
    case 'helper':
      await trx
        .updateTable('helpers')
        .set({ removed_at: null, available: before === '0' ? 0 : 1 })
        .where('id', '=', about.id)
        .execute();
      return;
    case 'review':
      await trx.updateTable('reviews').set({ removed_at: null }).where('id', '=', about.id).execute();
      return;
    case 'message':
      await trx.updateTable('messages').set({ removed_at: null }).where('id', '=', about.id).execute();
      return;
    case 'account':
      return;
  }
}

/** The rows the transparency figures count, from `since` on (never counters kept apart). */
export async function transparencyRows(db: Queryable, since: string) {
  const [reports, decisions, appeals] = await Promise.all([
    db.selectFrom('reports').select(['reason', 'created_at', 'decided_at']).where('created_at', '>=', since).execute(),
    db
      .selectFrom('moderation_decisions')
      .select(['action', 'ground', 'created_at', 'reversed_at'])
      .where((eb) => eb.or([eb('created_at', '>=', since), eb('reversed_at', '>=', since)]))
      .execute(),
    db.selectFrom('appeals').select(['created_at']).where('created_at', '>=', since).execute(),
  ]);
  const decided = await db
    .selectFrom('reports')
    .select(['created_at', 'decided_at'])
    .where('decided_at', '>=', since)
    .execute();
  return { reports, decisions, appeals, decided };
}

/** Whether the account owns the job or listing (its owner still sees it after a removal). */
export async function ownsItem(
  db: Queryable,
  type: 'job' | 'listing',
  id: string,
  accountId: string,
): Promise<boolean> {
  if (type === 'job') {
    const row = await db
      .selectFrom('jobs')
      .select('id')
      .where('id', '=', id)
      .where('owner_account_id', '=', accountId)
      .executeTakeFirst();
    return row !== undefined;
  }
  const row = await db
    .selectFrom('listings')
    .innerJoin('owners', 'owners.id', 'listings.owner_id')
    .select('listings.id')
    .where('listings.id', '=', id)
    .where('owners.account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The account of an item, whatever its state (a decision names whom it affects). */
export async function itemOwner(db: Queryable, about: About): Promise<string | null> {
  switch (about.type) {
    case 'job':
      return (
        (await db.selectFrom('jobs').select('owner_account_id as a').where('id', '=', about.id).executeTakeFirst())
          ?.a ?? null
      );
    case 'listing':
      return (
        (
          await db
            .selectFrom('listings')
            .innerJoin('owners', 'owners.id', 'listings.owner_id')
            .select('owners.account_id as a')
            .where('listings.id', '=', about.id)
            .executeTakeFirst()
        )?.a ?? null
      );
    case 'helper':
      return (
        (await db.selectFrom('helpers').select('account_id as a').where('id', '=', about.id).executeTakeFirst())?.a ??
        null
      );
    case 'review':
      return (
        (await db.selectFrom('reviews').select('author_account_id as a').where('id', '=', about.id).executeTakeFirst())
          ?.a ?? null
      );
    case 'message':
      return (
        (await db.selectFrom('messages').select('sender_account_id as a').where('id', '=', about.id).executeTakeFirst())
          ?.a ?? null
      );
  }
}

/** Stores a decision and marks its report decided (when a report prompted it). */
export async function recordDecision(trx: WriteTransaction, decision: DecisionRow): Promise<boolean> {
  await trx.insertInto('moderation_decisions').values(decision).execute();
  if (decision.report_id === null) return true;
  // Conditional: of two moderators deciding at once, one marks the report; the other's transaction is undone.
  const marked = await trx
    .updateTable('reports')
    .set({ status: 'decided', decided_at: decision.created_at, decision_id: decision.id })
    .where('id', '=', decision.report_id)
    .where('status', '=', 'received')
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

export async function setAppealOutcome(
  trx: WriteTransaction,
  id: string,
  outcome: 'upheld' | 'reversed',
  at: string,
  explanation: string,
): Promise<boolean> {
  const moved = await trx
    .updateTable('appeals')
    .set({ status: outcome, decided_at: at, explanation })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}
