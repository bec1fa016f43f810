import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildTestApp, createKey } from '../helpers/app.js';

/** Found by running the suite on PostgreSQL, which cannot hold U+0000 in text: each was a 500 there. */
test('a NUL character anywhere is a 400 naming where, on every engine', async (t) => {
  const { app, db } = await buildTestApp(t);
  const { key } = await createKey(db);
  const job = {
    title: 'Hecke schneiden',
    description: 'Zehn Meter Hecke, Werkzeug ist da.',
    category: 'GARDENING',
    price_eur: 50,
    location: { plz: '76131' },
  };
  const cases = [
    { method: 'POST', url: '/v1/jobs', payload: { ...job, title: 'Hecke\u0000 schneiden' }, param: 'title' },
    { method: 'POST', url: '/v1/jobs', payload: { ...job, location: { plz: '761\u000031' } }, param: 'location.plz' },
    {
      method: 'POST',
      url: '/v1/helpers',
      payload: { display_name: 'A\u0000B', categories: ['MOVING'], location: { plz: '76227' }, hourly_rate_eur: 18 },
      param: 'display_name',
    },
    {
      method: 'POST',
      url: '/v1/developer/key-requests',
      payload: { name: 'X\u0000Y', email: 'a@example.org', account_type: 'private', intended_use: 'a bot for tests' },
      param: 'name',
    },
    { method: 'GET', url: '/v1/jobs/job_%00abc', param: 'id' },
    { method: 'GET', url: '/v1/listings/lst_%00', param: 'id' },
    { method: 'GET', url: '/v1/helpers/availability?category=garden%00ing', param: 'category' },
    { method: 'GET', url: '/v1/jobs?category=%00', param: 'category' },
  ] as const;
  for (const c of cases) {
    const response = await app.inject({
      method: c.method,
      url: c.url,
      headers: { 'x-api-key': key },
      ...('payload' in c ? { payload: c.payload } : {}),
    });
    assert.equal(response.statusCode, 400, `${c.method} ${c.url}: ${response.body}`);
    const body = response.json();
    assert.equal(body.error, 'invalid_parameter');
    assert.equal(body.param, c.param);
    assert.match(body.message, /NUL character \(U\+0000\)/);
  }
  const jobs = await db.kysely.selectFrom('jobs').select('id').execute();
  assert.equal(jobs.length, 0, 'nothing was written');
});
