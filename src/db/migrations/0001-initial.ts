import { type CreateTableBuilder, type Expression, type Kysely, sql } from 'kysely';
import { textType } from './column-types.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
type Table = CreateTableBuilder<any, any>;

/** Where a job, listing or helper is: the reference place and the point. */
const placeColumns =
  (text: 'text' | Expression<unknown>) =>
  (t: Table): Table =>
    t
      .addColumn('city', text, (c) => c.notNull())
      .addColumn('plz', text, (c) => c.notNull())
      .addColumn('district', text)
      .addColumn('lat', 'double precision', (c) => c.notNull())
      .addColumn('lng', 'double precision', (c) => c.notNull());

/** The ReliabilityScore of a helper or a listing owner. */
const reliabilityColumns = (t: Table): Table =>
  t
    .addColumn('reliability_score', 'integer', (c) => c.notNull())
    .addColumn('completed_jobs', 'integer', (c) => c.notNull())
    .addColumn('avg_response_minutes', 'integer', (c) => c.notNull())
    .addColumn('cancellation_rate', 'double precision', (c) => c.notNull())
    .addColumn('rating_avg', 'double precision', (c) => c.notNull())
    .addColumn('rating_count', 'integer', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull());

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  const text = textType(db);
  await db.schema
    .createTable('meta')
    .addColumn('key', text, (c) => c.primaryKey())
    .addColumn('value', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('owners')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('display_name', text, (c) => c.notNull())
    .$call(reliabilityColumns)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('title', text, (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull())
    .addColumn('category', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('duration_hours', 'double precision', (c) => c.notNull())
    .$call(placeColumns(text))
    .addColumn('desired_at', text)
    .addColumn('desired_date', text)
    .addColumn('deadline', text)
    .addColumn('time_preference', text)
    .addColumn('urgent', 'integer', (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('helpers_needed', 'integer', (c) => c.notNull())
    .addColumn('applications_count', 'integer', (c) => c.notNull())
    .addColumn('smart_eta_minutes', 'integer')
    .addColumn('photos', text, (c) => c.notNull())
    .addColumn('requires_license', 'integer', (c) => c.notNull())
    .addColumn('express', 'integer', (c) => c.notNull())
    .addColumn('remote_task', 'integer', (c) => c.notNull())
    .addColumn('pricing_confidence', text)
    .addColumn('completed_at', text)
    .addCheckConstraint('jobs_helpers_needed', sql`helpers_needed between 1 and 4`)
    .addCheckConstraint('jobs_price', sql`price_cents >= 0`)
    .execute();
  await db.schema.createIndex('jobs_status_created').on('jobs').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('jobs_status_category').on('jobs').columns(['status', 'category']).execute();
  await db.schema.createIndex('jobs_status_price').on('jobs').columns(['status', 'price_cents']).execute();
  await db.schema.createIndex('jobs_status_date').on('jobs').columns(['status', 'desired_date']).execute();
  await db.schema.createIndex('jobs_lat_lng').on('jobs').columns(['lat', 'lng']).execute();

  await db.schema
    .createTable('listings')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('owner_id', text, (c) => c.notNull().references('owners.id'))
    .addColumn('title', text, (c) => c.notNull())
    .addColumn('description', text, (c) => c.notNull())
    .addColumn('category', text, (c) => c.notNull())
    .addColumn('status', text, (c) => c.notNull())
    .addColumn('price_per_day_cents', 'integer', (c) => c.notNull())
    .addColumn('price_per_week_cents', 'integer')
    .addColumn('deposit_cents', 'integer', (c) => c.notNull())
    .addColumn('condition', text, (c) => c.notNull())
    .$call(placeColumns(text))
    .addColumn('instant_booking', 'integer', (c) => c.notNull())
    .addColumn('photos', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('listings_status_created').on('listings').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('listings_status_category').on('listings').columns(['status', 'category']).execute();
  await db.schema
    .createIndex('listings_status_price')
    .on('listings')
    .columns(['status', 'price_per_day_cents'])
    .execute();
  await db.schema.createIndex('listings_lat_lng').on('listings').columns(['lat', 'lng']).execute();
  await db.schema.createIndex('listings_owner').on('listings').column('owner_id').execute();

  await db.schema
    .createTable('helpers')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('display_name', text, (c) => c.notNull())
    .addColumn('bio', text, (c) => c.notNull())
    .addColumn('hourly_rate_cents', 'integer', (c) => c.notNull())
    .addColumn('available', 'integer', (c) => c.notNull())
    .$call(placeColumns(text))
    .$call(reliabilityColumns)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('helpers_lat_lng').on('helpers').columns(['lat', 'lng']).execute();

  await db.schema
    .createTable('helper_categories')
    .addColumn('helper_id', text, (c) => c.notNull().references('helpers.id').onDelete('cascade'))
    .addColumn('category', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('helper_categories_pk', ['helper_id', 'category'])
    .execute();
  await db.schema
    .createIndex('helper_categories_category')
    .on('helper_categories')
    .columns(['category', 'helper_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['helper_categories', 'helpers', 'listings', 'jobs', 'owners', 'meta']) {
    await db.schema.dropTable(table).execute();
  }
}
