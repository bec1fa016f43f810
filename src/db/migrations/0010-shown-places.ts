import { type Kysely, sql } from 'kysely';
import { newPlaceSalt, shownPoint } from '../../domain/approximate-place.js';
import { textType } from './column-types.js';

/**
 * Issue 14 (privacy): lat/lng of jobs, listings and helpers become the shown point, a few hundred
 * metres from the place (domain/approximate-place.ts), so every public read, index and radius
 * filter that used them now uses it unchanged; the place itself moves to exact_lat/exact_lng.
 * Accounts get the salt that fixes their offsets. Rows already there get their shown point here,
 * in pages, with the account's salt where they have an account.
 */
const PAGE = 500;

const TABLES = {
  jobs: sql`select j.id, j.exact_lat, j.exact_lng, a.place_salt from jobs j left join accounts a on a.id = j.owner_account_id`,
  listings: sql`select l.id, l.exact_lat, l.exact_lng, a.place_salt from listings l join owners o on o.id = l.owner_id left join accounts a on a.id = o.account_id`,
  helpers: sql`select h.id, h.exact_lat, h.exact_lng, a.place_salt from helpers h left join accounts a on a.id = h.account_id`,
} as const;

interface PlaceRow {
  id: string;
  exact_lat: number;
  exact_lng: number;
  place_salt: string | null;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on today's Database type.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('place_salt', textType(db), (c) => c.notNull().defaultTo(''))
    .execute();
  const accounts = await db.selectFrom('accounts').select('id').execute();
  for (const { id } of accounts) {
    await db.updateTable('accounts').set({ place_salt: newPlaceSalt() }).where('id', '=', id).execute();
  }
  for (const [table, select] of Object.entries(TABLES)) {
    for (const column of ['exact_lat', 'exact_lng']) {
      await db.schema
        .alterTable(table)
        .addColumn(column, 'double precision', (c) => c.notNull().defaultTo(0))
        .execute();
    }
    await sql`update ${sql.table(table)} set exact_lat = lat, exact_lng = lng`.execute(db);
    let after = '';
    for (;;) {
      const { rows } =
        await sql<PlaceRow>`select * from (${select}) p where p.id > ${after} order by p.id limit ${sql.lit(PAGE)}`.execute(
          db,
        );
      const last = rows.at(-1);
      if (!last) break;
      const values = rows.map((row) => {
        const shown = shownPoint({ lat: row.exact_lat, lng: row.exact_lng }, row.place_salt || newPlaceSalt());
        return sql`(${row.id}, ${sql.lit(shown.lat)}, ${sql.lit(shown.lng)})`;
      });
      // VALUES columns are column1, column2, ... on both engines.
      await sql`update ${sql.table(table)} set lat = v.column2, lng = v.column3 from (values ${sql.join(values)}) as v where ${sql.table(table)}.id = v.column1`.execute(
        db,
      );
      after = last.id;
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(TABLES)) {
    await sql`update ${sql.table(table)} set lat = exact_lat, lng = exact_lng`.execute(db);
    for (const column of ['exact_lat', 'exact_lng']) await db.schema.alterTable(table).dropColumn(column).execute();
  }
  await db.schema.alterTable('accounts').dropColumn('place_salt').execute();
}
