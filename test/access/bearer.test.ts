/**
 * `Authorization: Bearer kmp_...` is the key, as X-API-Key is (issue 14): not quietly anonymous.
 * Other bearer tokens are OAuth access tokens (issue 31; test/http/oauth.test.ts); other schemes (a
 * proxy's Basic credentials) are not this API's and are left alone; /metrics keeps its own bearer token.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { generateApiKey } from '../../src/domain/api-keys.js';
import { buildTestApp, createKey, NOW } from '../helpers/app.js';
import { JOB_BODY } from '../helpers/bodies.js';

const SUGGESTION =
  'Check the key (it starts with kmp_ and has 53 characters), use its successor if it was rotated, or send no key to be served as anonymous. Request a developer key at /developers.';

const refusal = (message: string, param: string) => ({
  error: 'invalid_api_key',
  message,
  param,
  suggestion: SUGGESTION,
  alternatives: [],
  alternatives_count: 0,
});

describe('Authorization: Bearer', () => {
  test('a key sent as a bearer token is the developer key, for reads, writes and MCP tools', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key, accountId } = await createKey(db);
    const bearer = { authorization: `Bearer ${key}` };
    const me = await app.inject({ url: '/v1/me', headers: bearer });
    const viaHeader = await app.inject({ url: '/v1/me', headers: { 'x-api-key': key } });
    assert.equal(me.statusCode, 200);
    assert.equal(me.json().tier, 'developer');
    assert.equal(me.json().account.id, accountId);
    const withoutBudget = (body: Record<string, unknown>) => ({ ...body, rate_limit: null });
    assert.deepEqual(withoutBudget(me.json()), withoutBudget(viaHeader.json()));
    // The scheme in any case and extra spaces (RFC 9110 11.1): off the contract on purpose, as Prism's
    // validator compares the scheme's case (test/helpers/request-log.mjs).
    const lowerCase = await app.inject({
      url: '/v1/me',
      headers: { authorization: `bearer  ${key}`, 'x-test-off-contract': 'the scheme in any case' },
    });
    assert.equal(lowerCase.json().tier, 'developer');
    const both = await app.inject({ url: '/v1/me', headers: { ...bearer, 'x-api-key': key } });
    assert.equal(both.json().tier, 'developer', 'the same key twice is fine');

    const created = await app.inject({ method: 'POST', url: '/v1/jobs', headers: bearer, payload: JOB_BODY });
    assert.equal(created.statusCode, 201, created.body);

    const call = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer, accept: 'application/json, text/event-stream' },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_job', arguments: { ...JOB_BODY, idempotency_key: 'mcp-bearer-1' } },
      },
    });
    assert.equal(call.statusCode, 200, call.body);
    assert.match(call.json().result.structuredContent.id, /^job_/, call.body);
    const jobs = await db.kysely.selectFrom('jobs').select('id').where('owner_account_id', '=', accountId).execute();
    assert.equal(jobs.length, 2);
  });

  test('a bad bearer key is a 401 naming Authorization; two different keys are a 401', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { key } = await createKey(db);
    const cases: [string, Record<string, string>, ReturnType<typeof refusal>][] = [
      [
        'malformed',
        { authorization: 'Bearer kmp_123' },
        refusal('The key in Authorization: Bearer is malformed.', 'Authorization'),
      ],
      [
        'unknown',
        { authorization: `Bearer ${generateApiKey()}` },
        refusal('The key in Authorization: Bearer is not known.', 'Authorization'),
      ],
      [
        'different keys',
        { authorization: `Bearer ${generateApiKey()}`, 'x-api-key': key },
        refusal('X-API-Key and Authorization: Bearer hold two different keys.', 'Authorization'),
      ],
    ];
    for (const [name, headers, body] of cases) {
      const response = await app.inject({ url: '/v1/me', headers });
      assert.deepEqual({ status: response.statusCode, body: response.json() }, { status: 401, body }, name);
    }
  });

  test('Basic credentials are not this API’s: anonymous; any other bearer token is an OAuth access token; /metrics keeps its own token', async (t) => {
    const token = 'metrics-token-0123456789abcdefghijklmnop';
    const { app, db } = await buildTestApp(t, NOW, { METRICS_TOKEN: token });
    const { key } = await createKey(db);
    // Off the contract on purpose: the document names only this API's schemes (request-log.mjs).
    const basic = {
      authorization: 'Basic dXNlcjpwYXNz',
      'x-test-off-contract': 'Basic credentials are read as anonymous',
    };
    const anonymous = await app.inject({ url: '/v1/me', headers: basic });
    assert.equal(anonymous.statusCode, 200);
    assert.equal(anonymous.json().tier, 'anonymous');
    // Issue 31: a bearer token that is not a key is an access token of this site's authorization server.
    for (const authorization of [`Bearer ${token}`, 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x']) {
      const response = await app.inject({ url: '/v1/me', headers: { authorization } });
      assert.equal(response.statusCode, 401, authorization);
      assert.equal(response.json().error, 'invalid_token', authorization);
      assert.match(String(response.headers['www-authenticate']), /^Bearer error="invalid_token", resource_metadata=/);
    }
    const metrics = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    assert.equal(metrics.statusCode, 200);
    const keyForMetrics = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${key}` } });
    assert.equal(keyForMetrics.statusCode, 401);
    assert.equal(keyForMetrics.json().error, 'authentication_required', 'a developer key is not the metrics token');
  });
});
