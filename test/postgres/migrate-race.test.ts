/**
 * Kysely's migrator lists the tables of every schema of the database to find its own table, and
 * PostgreSQL fails that listing (3F000) when another client drops a schema in the same moment.
 * Migrations of one schema must not fail because a neighbour's schema went away: runs in the
 * PostgreSQL pass only, migrating while other schemas come and go as fast as they can.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import pg from 'pg';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { freshDatabaseUrl } from '../helpers/database.js';

test('migrations succeed while other schemas of the database are dropped meanwhile', {
  timeout: 120_000,
}, async (t) => {
  const urls = await Promise.all([1, 2, 3, 4].map(() => freshDatabaseUrl(t)));
  const admin = new pg.Client({ connectionString: urls[0] });
  await admin.connect();
  t.after(() => admin.end());

  let stop = false;
  let churned = 0;
  const churn = (async () => {
    for (let i = 0; !stop; i++) {
      const name = `churn_${process.pid}_${i}`;
      await admin.query(`create schema ${name}; create table ${name}.a (x int); create table ${name}.b (y text)`);
      await admin.query(`drop schema ${name} cascade`);
      churned++;
    }
  })();

  try {
    // Each migration run lists every schema's tables several times; four runs, one after another,
    // each racing against the churn above.
    for (const url of urls) {
      const db = createDb(url);
      try {
        const applied = await migrateToLatest(db);
        assert.ok(applied.length >= 18, `applied ${applied.length} migrations`);
      } finally {
        await db.close();
      }
    }
  } finally {
    stop = true;
    await churn;
  }
  assert.ok(churned > 0, 'other schemas came and went during the migrations');
});
