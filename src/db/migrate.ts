import { type DatabaseIntrospector, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './create-db.js';
import * as initial from './migrations/0001-initial.js';
import * as access from './migrations/0002-access.js';
import * as writes from './migrations/0003-writes.js';
import * as bookingPrices from './migrations/0004-booking-prices.js';
import * as geoIndex from './migrations/0005-geo-index.js';
import * as searchCover from './migrations/0006-search-cover.js';
import * as hardening from './migrations/0007-hardening.js';
import * as events from './migrations/0008-events.js';
import * as bookingExpiry from './migrations/0009-booking-expiry.js';
import * as shownPlaces from './migrations/0010-shown-places.js';
import * as idempotencyHeaders from './migrations/0011-idempotency-headers.js';
import * as conversations from './migrations/0012-conversations.js';
import * as reviews from './migrations/0013-reviews.js';
import * as calendarFeeds from './migrations/0014-calendar-feeds.js';
import * as savedSearches from './migrations/0015-saved-searches.js';
import * as accountErasure from './migrations/0016-account-erasure.js';
import * as providers from './migrations/0017-providers.js';
import * as notices from './migrations/0018-notices.js';
import * as changeNotify from './migrations/0019-change-notify.js';
import * as searchChanges from './migrations/0020-search-changes.js';
import * as drafts from './migrations/0021-drafts.js';
import * as placeReleases from './migrations/0022-place-releases.js';
import * as completionConfirmations from './migrations/0023-completion-confirmations.js';
import * as signIn from './migrations/0024-sign-in.js';
import * as passkeys from './migrations/0025-passkeys.js';
import * as oauth from './migrations/0026-oauth.js';
import * as payments from './migrations/0027-payments.js';
import * as bankAccounts from './migrations/0028-bank-accounts.js';
import * as bookingMoney from './migrations/0029-booking-money.js';
import * as noShowsAndStripe from './migrations/0030-no-shows-and-stripe.js';
import * as operatorsAndAudit from './migrations/0031-operators-and-audit.js';
import * as reportSnapshots from './migrations/0032-report-snapshots.js';
import * as consoleDecisions from './migrations/0033-console-decisions.js';
import * as jobSeries from './migrations/0034-job-series.js';
import * as bookingRules from './migrations/0035-booking-rules.js';
import * as hourlyLending from './migrations/0036-hourly-lending.js';
import * as seriesExcusals from './migrations/0037-series-excusals.js';
import * as notifications from './migrations/0038-notifications.js';
import * as chosenLanguage from './migrations/0039-chosen-language.js';

/** Migrations are listed in code, not read from a folder, so they work the same from src/ and dist/. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-access': access,
  '0003-writes': writes,
  '0004-booking-prices': bookingPrices,
  '0005-geo-index': geoIndex,
  '0006-search-cover': searchCover,
  '0007-hardening': hardening,
  '0008-events': events,
  '0009-booking-expiry': bookingExpiry,
  '0010-shown-places': shownPlaces,
  '0011-idempotency-headers': idempotencyHeaders,
  '0012-conversations': conversations,
  '0013-reviews': reviews,
  '0014-calendar-feeds': calendarFeeds,
  '0015-saved-searches': savedSearches,
  '0016-account-erasure': accountErasure,
  '0017-providers': providers,
  '0018-notices': notices,
  '0019-change-notify': changeNotify,
  '0020-search-changes': searchChanges,
  '0021-drafts': drafts,
  '0022-place-releases': placeReleases,
  '0023-completion-confirmations': completionConfirmations,
  '0024-sign-in': signIn,
  '0025-passkeys': passkeys,
  '0026-oauth': oauth,
  '0027-payments': payments,
  '0028-bank-accounts': bankAccounts,
  '0029-booking-money': bookingMoney,
  '0030-no-shows-and-stripe': noShowsAndStripe,
  '0031-operators-and-audit': operatorsAndAudit,
  '0032-report-snapshots': reportSnapshots,
  '0033-console-decisions': consoleDecisions,
  '0034-job-series': jobSeries,
  '0035-booking-rules': bookingRules,
  '0036-hourly-lending': hourlyLending,
  '0037-series-excusals': seriesExcusals,
  '0038-notifications': notifications,
  '0039-chosen-language': chosenLanguage,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

async function currentSchema(db: Db): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db.kysely);
  return rows[0]?.schema ?? undefined;
}

/**
 * Kysely's migrator looks for its tables by listing the tables of every schema of the database, and
 * PostgreSQL resolves each schema by name during that listing: a schema another client drops in
 * that moment (tenants sharing a database, tests each with their own schema) fails it with 3F000
 * "schema … does not exist". The migrator only asks whether its two tables exist in our schema, so
 * on PostgreSQL it gets an introspector that lists our schema's tables alone: a neighbour's schema
 * is never read, and cannot fail our migrations.
 */
function ownSchemaOnly(kysely: Db['kysely'], schema: string): Db['kysely'] {
  const introspector = kysely.introspection;
  const scoped: DatabaseIntrospector = {
    getSchemas: () => introspector.getSchemas(),
    getMetadata: (options) => introspector.getMetadata(options),
    getTables: async () => {
      const { rows } = await sql<{ name: string; isView: boolean }>`
        select c.relname as name, c.relkind in ('v', 'm') as "isView"
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm')`.execute(kysely);
      return rows.map((row) => ({ name: row.name, schema, isView: row.isView, columns: [] }));
    },
  };
  // Kysely keeps its state in private fields, so every other member is taken from the instance itself.
  return new Proxy(kysely, {
    get(target, property) {
      if (property === 'introspection') return scoped;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * On PostgreSQL, the migration tables live in the schema the tables do (the first of the
 * search_path); otherwise Kysely would find another schema's on the path and skip creating its own.
 */
async function migratorFor(db: Db): Promise<Migrator> {
  if (db.dialect !== 'postgres') return new Migrator({ db: db.kysely, provider });
  const schema = await currentSchema(db);
  if (!schema) throw new Error('No schema to migrate into: the search_path names no existing schema.');
  return new Migrator({ db: ownSchemaOnly(db.kysely, schema), provider, migrationTableSchema: schema });
}

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await (await migratorFor(db)).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Applies the migrations up to and including `name` (tests of a migration start from the one before). */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const { error } = await (await migratorFor(db)).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The names of migrations not applied yet, in order. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrations = await (await migratorFor(db)).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
