/**
 * Several invalid fields are reported at once (issue 29): the error itself describes the first
 * problem as before, and `errors` lists every problem the schema validation found in the request
 * part, one per parameter, each as it would be reported alone, at most MAX_ERROR_DETAILS. A request
 * with one problem answers as it always did, without `errors`. (A write body's strict check of
 * types, enum values and unknown fields, src/http/write-body.ts, runs first and still stops at its
 * first finding.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_ERROR_DETAILS } from '../../src/schemas/error.js';
import { buildTestApp, createKey } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';
import { TEST_ENGINE } from '../helpers/database.js';

const ERROR_KEYS = ['alternatives', 'alternatives_count', 'error', 'message', 'param', 'suggestion'];

type Body = Record<string, any>;

/** What `errors` lists of a problem: its body without the alternatives. */
const detail = ({ error, param, message, suggestion }: Body) => ({ error, param, message, suggestion });

describe(`several invalid fields are reported at once (${TEST_ENGINE})`, () => {
  test('a body: the first problem as the error, every problem in errors, each as it is reported alone', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key } = await createKey(db);
    const post = async (payload: object) => {
      const response = await app.inject({
        method: 'POST',
        url: '/v1/jobs',
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'several-1' },
        payload,
      });
      assert.equal(response.statusCode, 400, response.body);
      return response.json() as Body;
    };
    const { title: _, ...untitled } = JOB_BODY;
    const alone = [
      await post(untitled),
      await post({ ...JOB_BODY, price_eur: -5 }),
      await post({ ...JOB_BODY, description: 'kurz' }),
      await post({ ...JOB_BODY, location: { plz: '1234' } }),
    ];
    for (const body of alone) assert.deepEqual(Object.keys(body).sort(), ERROR_KEYS, 'one problem: no errors list');

    const all = await post({ ...untitled, price_eur: -5, description: 'kurz', location: { plz: '1234' } });
    assert.deepEqual(Object.keys(all).sort(), [...ERROR_KEYS, 'errors'].sort());
    const { errors, ...first } = all;
    const firstAlone = alone.find((body) => body.param === first.param);
    assert.deepEqual(first, firstAlone, 'the error itself is the first problem, as reported alone');
    assert.deepEqual(errors[0], detail(first));
    assert.deepEqual(
      [...errors].sort((a: Body, b: Body) => a.param.localeCompare(b.param)),
      alone.map(detail).sort((a, b) => a.param.localeCompare(b.param)),
    );
    assert.equal(errors.length, alone.length);
    // Refused before the write: the same key with a valid body does the work.
    const created = await app.inject({
      method: 'POST',
      url: '/v1/jobs',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'idempotency-key': 'several-1' },
      payload: JOB_BODY,
    });
    assert.equal(created.statusCode, 201, created.body);
  });

  test('a query string: every invalid parameter; two failures of one parameter are one problem', async (t) => {
    const { app } = await buildTestApp(t);
    const get = async (query: string) => {
      const response = await app.inject({ method: 'GET', url: `/v1/jobs?${query}` });
      assert.equal(response.statusCode, 400, response.body);
      return response.json() as Body;
    };
    const parts = ['radius=500', 'sort=bogus', 'limt=5', 'category=Garten'];
    const alone = await Promise.all(parts.map(get));
    const all = await get(parts.join('&'));
    assert.equal(all.errors.length, parts.length, JSON.stringify(all.errors));
    assert.deepEqual(detail(all), all.errors[0]);
    assert.deepEqual(
      new Set(all.errors.map((e: Body) => JSON.stringify(e))),
      new Set(alone.map((body) => JSON.stringify(detail(body)))),
    );
    assert.equal(new Set(all.errors.map((e: Body) => e.param)).size, parts.length, 'one entry per parameter');
  });

  test(`at most ${MAX_ERROR_DETAILS} problems are listed, however many the request has`, async (t) => {
    const { app } = await buildTestApp(t);
    const query = Array.from({ length: 200 }, (_, i) => `unknown_${i}=${i}`).join('&');
    const response = await app.inject({ method: 'GET', url: `/v1/jobs?${query}` });
    assert.equal(response.statusCode, 400);
    const body = response.json() as Body;
    assert.equal(body.error, 'unknown_parameter');
    assert.equal(body.param, 'unknown_0');
    assert.equal(body.errors.length, MAX_ERROR_DETAILS);
    assert.deepEqual(
      body.errors.map((e: Body) => e.param),
      Array.from({ length: MAX_ERROR_DETAILS }, (_, i) => `unknown_${i}`),
    );
  });
});
