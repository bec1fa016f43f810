import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';
import type { AccountRow } from '../db/schema.js';
import { EXPORT_SECTIONS, type ExportFields, type ExportSectionKey } from '../schemas/account-export.js';
import { categoriesOfHelpers } from './helper-availability.js';

/** Rows read per round trip: an export of any size streams with flat memory. */
const PAGE_ROWS = 500;

/** Where a section's rows are and which belong to the account. */
interface Source {
  table: string;
  /** The columns that order the rows and page through them (unique together). */
  key: readonly string[];
  /** The account's rows, as an SQL condition on the table. */
  mine(account: AccountRow): Expression<SqlBool>;
}

const ownerIds = (account: AccountRow) => sql`(select id from owners where account_id = ${account.id})`;

const SOURCES: Record<ExportSectionKey, Source> = {
  account: { table: 'accounts', key: ['id'], mine: (a) => sql`id = ${a.id}` },
  provider_details: { table: 'providers', key: ['account_id'], mine: (a) => sql`account_id = ${a.id}` },
  api_keys: { table: 'api_keys', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  key_requests: { table: 'key_requests', key: ['id'], mine: (a) => sql`lower(email) = ${a.email.toLowerCase()}` },
  jobs: { table: 'jobs', key: ['id'], mine: (a) => sql`owner_account_id = ${a.id}` },
  job_series: { table: 'job_series', key: ['id'], mine: (a) => sql`owner_account_id = ${a.id}` },
  series_applications: { table: 'series_applications', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  job_series_skips: {
    table: 'job_series_skips',
    key: ['series_id', 'occurrence_date'],
    mine: (a) => sql`series_id in (select id from job_series where owner_account_id = ${a.id})`,
  },
  job_series_excusals: {
    table: 'job_series_excusals',
    key: ['series_id', 'helper_id', 'occurrence_date'],
    mine: (a) =>
      sql`(series_id in (select id from job_series where owner_account_id = ${a.id}) or helper_id in (select id from helpers where account_id = ${a.id}))`,
  },
  notification_settings: {
    table: 'notification_settings',
    key: ['account_id'],
    mine: (a) => sql`account_id = ${a.id}`,
  },
  notifications: { table: 'notifications', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  push_subscriptions: { table: 'push_subscriptions', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  owner_profiles: { table: 'owners', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  listings: { table: 'listings', key: ['id'], mine: (a) => sql`owner_id in ${ownerIds(a)}` },
  helper_profiles: { table: 'helpers', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  applications: { table: 'applications', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  applications_received: {
    table: 'applications',
    key: ['id'],
    mine: (a) => sql`job_id in (select id from jobs where owner_account_id = ${a.id})`,
  },
  bookings: { table: 'bookings', key: ['id'], mine: (a) => sql`renter_account_id = ${a.id}` },
  booking_extensions: {
    table: 'booking_extensions',
    key: ['id'],
    mine: (a) => sql`booking_id in (select id from bookings where renter_account_id = ${a.id})`,
  },
  waitlist_entries: { table: 'waitlist_entries', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  busy_calendars: { table: 'busy_calendars', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  bookings_received: {
    table: 'bookings',
    key: ['id'],
    mine: (a) => sql`listing_id in (select id from listings where owner_id in ${ownerIds(a)})`,
  },
  conversations: {
    table: 'conversations',
    key: ['id'],
    mine: (a) => sql`(account_low = ${a.id} or account_high = ${a.id})`,
  },
  messages_sent: { table: 'messages', key: ['id'], mine: (a) => sql`sender_account_id = ${a.id}` },
  messages_received: { table: 'messages', key: ['id'], mine: (a) => sql`recipient_account_id = ${a.id}` },
  reviews_written: { table: 'reviews', key: ['id'], mine: (a) => sql`author_account_id = ${a.id}` },
  reviews_received: {
    table: 'reviews',
    key: ['id'],
    mine: (a) => sql`reviewed_account_id = ${a.id} and published_at is not null`,
  },
  verifications: { table: 'verifications', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  saved_searches: { table: 'saved_searches', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  drafts: { table: 'drafts', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  sessions: { table: 'sessions', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  passkeys: { table: 'passkeys', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  connected_apps: {
    table: 'oauth_records',
    key: ['id'],
    mine: (a) => sql`model = 'Grant' and account_id = ${a.id}`,
  },
  oauth_clients: {
    table: 'oauth_records',
    key: ['id'],
    mine: (a) => sql`model = 'Client' and account_id = ${a.id}`,
  },
  bank_account: { table: 'bank_accounts', key: ['account_id'], mine: (a) => sql`account_id = ${a.id}` },
  operator: { table: 'operators', key: ['account_id'], mine: (a) => sql`account_id = ${a.id}` },
  payout_account: { table: 'payout_accounts', key: ['account_id'], mine: (a) => sql`account_id = ${a.id}` },
  payments: {
    table: 'payments',
    key: ['id'],
    mine: (a) => sql`(payer_account_id = ${a.id} or payee_account_id = ${a.id})`,
  },
  claims: {
    table: 'claims',
    key: ['id'],
    mine: (a) => sql`(owner_account_id = ${a.id} or renter_account_id = ${a.id})`,
  },
  saved_search_matches: {
    table: 'saved_search_matches',
    key: ['saved_search_id', 'subject_id'],
    mine: (a) => sql`saved_search_id in (select id from saved_searches where account_id = ${a.id})`,
  },
  webhooks: { table: 'webhooks', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  reports_filed: { table: 'reports', key: ['id'], mine: (a) => sql`reporter_account_id = ${a.id}` },
  moderation_decisions: { table: 'moderation_decisions', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  appeals: { table: 'appeals', key: ['id'], mine: (a) => sql`account_id = ${a.id}` },
  calendar_feeds: { table: 'calendar_feeds', key: ['account_id'], mine: (a) => sql`account_id = ${a.id}` },
  place_reads: {
    table: 'place_releases',
    key: ['object_id', 'reader_account_id', 'day'],
    mine: (a) => sql`reader_account_id = ${a.id}`,
  },
  place_releases: {
    table: 'place_releases',
    key: ['object_id', 'reader_account_id', 'day'],
    mine: (a) => sql`owner_account_id = ${a.id}`,
  },
};

/** Fields that are not a column of the section's table, and how to add them to a page of rows. */
const COMPUTED: Partial<
  Record<ExportSectionKey, Record<string, (db: Queryable, ids: string[]) => Promise<Map<string, unknown>>>>
> = {
  helper_profiles: {
    categories: async (db, ids) => {
      const byHelper = await categoriesOfHelpers(db, ids);
      return new Map(ids.map((id) => [id, byHelper.get(id) ?? []]));
    },
  },
};

/** A stored value as the export shows it: flags as booleans, JSON texts parsed. */
function exported(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type.startsWith('b')) return Number(value) === 1;
  if (type.startsWith('j')) return typeof value === 'string' ? JSON.parse(value) : value;
  if (type.startsWith('i') || type.startsWith('n')) return Number(value);
  return value;
}

/**
 * The account's rows of one section, page by page (PAGE_ROWS at a time, in key order, each page
 * a query of its own), converted to the export's fields: nothing else is read.
 */
export async function* sectionRows(
  db: Queryable,
  key: ExportSectionKey,
  account: AccountRow,
): AsyncGenerator<Record<string, unknown>[]> {
  const section = EXPORT_SECTIONS.find((s) => s.key === key);
  if (!section) throw new Error(`no export section ${key}`);
  const source = SOURCES[key];
  const computed = COMPUTED[key] ?? {};
  const fields: ExportFields = section.fields;
  const columns = Object.keys(fields).filter((name) => !(name in computed));
  const selected = [...new Set([...columns, ...source.key])];
  // Table and column names come from the constants above, never from a request.
  const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  let after: unknown[] | null = null;
  for (;;) {
    const from = after;
    let query = loose.selectFrom(source.table).select(selected).where(source.mine(account)).limit(PAGE_ROWS);
    for (const k of source.key) query = query.orderBy(k);
    if (from) {
      const left = sql.join(source.key.map((k) => sql.ref(k)));
      const right = sql.join(from);
      query = query.where(
        source.key.length === 1 ? sql<SqlBool>`${left} > ${right}` : sql<SqlBool>`(${left}) > (${right})`,
      );
    }
    const rows = await query.execute();
    if (rows.length === 0) return;
    const extra = await Promise.all(
      Object.entries(computed).map(
        async ([name, compute]) =>
          [
            name,
            await compute(
              db,
              rows.map((row) => String(row.id)),
            ),
          ] as const,
      ),
    );
    yield rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (const [name, [type]] of Object.entries(fields)) {
        const value = name in computed ? extra.find(([n]) => n === name)?.[1].get(String(row.id)) : row[name];
        out[name] = exported(type, value);
      }
      return out;
    });
    if (rows.length < PAGE_ROWS) return;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = source.key.map((k) => last[k]);
  }
}
