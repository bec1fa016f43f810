import { type Kysely, sql } from 'kysely';
import { newPlaceSalt, shownPoint } from '../../domain/approximate-place.js';
import { DEFAULT_CENTER, haversineKm, type LatLng, round } from '../../domain/geo.js';
import { isPostgres, textType } from './column-types.js';

/**
 * Issue 14 (privacy): lat/lng of jobs, listings and helpers become the shown point, a few hundred
 * metres from the place (domain/approximate-place.ts), so every public read, index and radius
 * filter that used them now uses it unchanged; the place itself moves to exact_lat/exact_lng.
 * Accounts get the salt that fixes their offsets. Rows already there get their shown point here,
 * in pages, with the account's salt where they have an account; so do the public events already
 * in the outbox (a stream resuming from evt_0 or a pending webhook delivery would replay them).
 * On SQLite (no transactional DDL in Kysely's migrator) it runs in a transaction of its own, so a
 * crash half-way leaves the database as it was.
 */
const PAGE = 500;

const SUBJECTS = {
  jobs: sql`select j.id, j.exact_lat, j.exact_lng, j.lat, j.lng, a.place_salt from jobs j left join accounts a on a.id = j.owner_account_id`,
  listings: sql`select l.id, l.exact_lat, l.exact_lng, l.lat, l.lng, a.place_salt from listings l join owners o on o.id = l.owner_id left join accounts a on a.id = o.account_id`,
  helpers: sql`select h.id, h.exact_lat, h.exact_lng, h.lat, h.lng, a.place_salt from helpers h left join accounts a on a.id = h.account_id`,
} as const;

interface PlaceRow {
  id: string;
  exact_lat: number;
  exact_lng: number;
  lat: number;
  lng: number;
  place_salt: string | null;
}

interface EventRow {
  id: string | number;
  payload: string;
  subject: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
type AnyDb = Kysely<any>;

/** Reads a query's rows in pages by id (text ids compare alike on both engines: collate "C"). */
async function eachPage<T extends { id: string | number }>(
  db: AnyDb,
  select: ReturnType<typeof sql>,
  first: string | number,
  each: (rows: T[]) => Promise<void>,
): Promise<void> {
  let after = first;
  for (;;) {
    const { rows } =
      await sql<T>`select * from (${select}) p where p.id > ${after} order by p.id limit ${sql.lit(PAGE)}`.execute(db);
    const last = rows.at(-1);
    if (!last) return;
    await each(rows);
    after = last.id;
  }
}

async function shownPlaces(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('place_salt', textType(db), (c) => c.notNull().defaultTo(''))
    .execute();
  const accounts = await db.selectFrom('accounts').select('id').execute();
  for (const { id } of accounts) {
    await db.updateTable('accounts').set({ place_salt: newPlaceSalt() }).where('id', '=', id).execute();
  }
  for (const [table, select] of Object.entries(SUBJECTS)) {
    for (const column of ['exact_lat', 'exact_lng']) {
      await db.schema
        .alterTable(table)
        .addColumn(column, 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
    }
    await sql`update ${sql.table(table)} set exact_lat = lat, exact_lng = lng`.execute(db);
    await eachPage<PlaceRow>(db, select, '', async (rows) => {
      const values = rows.map((row) => {
        const shown = shownPoint({ lat: row.exact_lat, lng: row.exact_lng }, row.place_salt || newPlaceSalt());
        return sql`(${row.id}, ${sql.lit(shown.lat)}, ${sql.lit(shown.lng)})`;
      });
      // VALUES columns are column1, column2, ... on both engines.
      await sql`update ${sql.table(table)} set lat = v.column2, lng = v.column3 from (values ${sql.join(values)}) as v where ${sql.table(table)}.id = v.column1`.execute(
        db,
      );
    });
  }
  await shownEvents(db);
}

/**
 * Public job and listing events hold the object as it was shown: its exact point until now. Each
 * gets the shown point of the place it names (the subject's, when the place is still the same).
 */
async function shownEvents(db: AnyDb): Promise<void> {
  const select = sql`select e.id, e.payload, coalesce(e.subject_id, '') as subject from events e where e.audience is null and (e.type like 'job.%' or e.type like 'listing.%')`;
  await eachPage<EventRow>(db, select, 0, async (events) => {
    const ids = [...new Set(events.map((event) => event.subject ?? ''))];
    const subjects = new Map<string, PlaceRow>();
    for (const [table, query] of Object.entries(SUBJECTS)) {
      if (table === 'helpers') continue;
      const { rows } = await sql<PlaceRow>`select * from (${query}) p where p.id in (${sql.join(ids)})`.execute(db);
      for (const row of rows) subjects.set(row.id, row);
    }
    const values = events.flatMap((event) => {
      const object = JSON.parse(event.payload) as { location?: LatLng & { distance_km: number } };
      if (!object.location) return [];
      const subject = subjects.get(event.subject ?? '');
      const samePlace =
        subject && subject.exact_lat === object.location.lat && subject.exact_lng === object.location.lng;
      const shown = samePlace ? subject : shownPoint(object.location, subject?.place_salt || newPlaceSalt());
      object.location = {
        ...object.location,
        lat: shown.lat,
        lng: shown.lng,
        distance_km: round(haversineKm(DEFAULT_CENTER, shown), 2),
      };
      const id = sql.lit(Number(event.id));
      return [sql`(${id}, ${sql.lit(shown.lat)}, ${sql.lit(shown.lng)}, ${JSON.stringify(object)})`];
    });
    if (values.length === 0) return;
    await sql`update events set lat = v.column2, lng = v.column3, payload = v.column4 from (values ${sql.join(values)}) as v where events.id = v.column1`.execute(
      db,
    );
  });
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) await shownPlaces(db);
  else await db.transaction().execute(shownPlaces);
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of Object.keys(SUBJECTS)) {
    await sql`update ${sql.table(table)} set lat = exact_lat, lng = exact_lng`.execute(db);
    for (const column of ['exact_lat', 'exact_lng']) await db.schema.alterTable(table).dropColumn(column).execute();
  }
  await db.schema.alterTable('accounts').dropColumn('place_salt').execute();
}
