import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { NOW } from '../helpers/app.js';

test('the sandbox is rebuilt for each new Berlin day, so its jobs never go stale', async (t) => {
  let now = NOW;
  const db = createDb('sqlite::memory:');
  await migrateToLatest(db);
  const app = await buildApp(testConfig({ RATE_LIMIT_SANDBOX_PER_MIN: '1000' }), { db, now: () => now });
  t.after(async () => {
    await app.close();
    await db.close();
  });
  const page = async () => (await app.inject({ url: '/v1/demo/jobs?limit=1&sort=newest' })).json();

  const first = await page();
  assert.equal(first.total, 300);
  now = new Date(NOW.getTime() + 40 * 86_400_000); // every demo deadline has passed by now
  const later = await page();
  assert.equal(later.total, 300, 'the demo jobs were rebuilt around the new day');
  assert.equal(Date.parse(later.data[0].created_at) - Date.parse(first.data[0].created_at), 40 * 86_400_000);
  assert.equal(later.data[0].id, first.data[0].id, 'the same seed keeps the same ids');
});
