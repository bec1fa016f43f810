import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AdminContext } from '../../src/cli/admin-context.js';
import { approve } from '../../src/cli/admin-requests.js';
import { testConfig } from '../../src/config.js';
import type { Api } from '../../src/http/route-deps.js';
import type { MailMessage } from '../../src/mail/mailer.js';
import { buildTestApp, NOW } from '../helpers/app.js';

const ENDPOINT = '/v1/developer/key-requests';

const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  organisation: 'Analytical Engines GmbH',
  account_type: 'private',
  intended_use: 'A dashboard of open gardening jobs in Durlach.',
};

async function post(app: Api, payload: unknown, headers: Record<string, string> = {}) {
  const response = await app.inject({
    method: 'POST',
    url: ENDPOINT,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: response.statusCode, headers: response.headers, body: response.json() as unknown };
}

/** The ApiError body, with no alternatives unless given. */
function apiError(
  error: string,
  param: string | null,
  message: string,
  suggestion: string,
  alternatives: string[] = [],
) {
  return { error, message, param, suggestion, alternatives, alternatives_count: alternatives.length };
}

describe('POST /v1/developer/key-requests', () => {
  test('202: the whole answer, and the request stored trimmed, the email in lower case, no organisation as null', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { status, headers, body } = await post(
      app,
      {
        ...VALID,
        name: '  Ada  ',
        email: ' Ada@Example.ORG ',
        organisation: '',
        intended_use: '\tA dashboard of open gardening jobs in Durlach.\n',
      },
      // Off the contract on purpose: the document describes the trimmed form (test/helpers/request-log.mjs).
      { 'x-test-off-contract': 'padding is trimmed before validation' },
    );
    assert.equal(status, 202);
    assert.match(String(headers['content-type']), /^application\/json/);
    const id = (body as { id: string }).id;
    assert.match(id, /^kr_[0-9a-f]{16}$/);
    assert.deepEqual(body, {
      id,
      status: 'pending',
      created_at: NOW.toISOString(),
      review_within_hours: 24,
      message: `Thank you. Your request ${id} will be reviewed within 24 hours; the key will be sent to ada@example.org.`,
    });
    assert.deepEqual(await db.kysely.selectFrom('key_requests').selectAll().execute(), [
      {
        id,
        name: 'Ada',
        email: 'ada@example.org',
        organisation: null,
        account_type: 'private',
        intended_use: VALID.intended_use,
        status: 'pending',
        created_at: NOW.toISOString(),
        decided_at: null,
        reason: null,
        key_id: null,
      },
    ]);
  });

  test('202 alike for an address with a request waiting: nothing filed, nothing told, one e-mail', async (t) => {
    const { app, db } = await buildTestApp(t);
    const first = await post(app, VALID);
    assert.equal(first.status, 202);
    const firstId = (first.body as { id: string }).id;
    const again = await post(app, { ...VALID, email: 'ADA@Example.org', name: 'Ada again' });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    const id = (again.body as { id: string }).id;
    assert.match(id, /^kr_[0-9a-f]{16}$/);
    assert.notEqual(id, firstId, 'not the waiting request’s id');
    // The same answer as a first request: only the id differs, as it does between any two requests.
    const answer = (requestId: string) => ({
      id: requestId,
      status: 'pending',
      created_at: NOW.toISOString(),
      review_within_hours: 24,
      message: `Thank you. Your request ${requestId} will be reviewed within 24 hours; the key will be sent to ada@example.org.`,
    });
    assert.deepEqual(first.body, answer(firstId));
    assert.deepEqual(again.body, answer(id));
    assert.deepEqual(Object.keys(again.headers).sort(), Object.keys(first.headers).sort());
    const rows = await db.kysely.selectFrom('key_requests').select(['id', 'name']).execute();
    assert.deepEqual(rows, [{ id: firstId, name: 'Ada Lovelace' }], 'the first request stands, nothing else is filed');

    // Approving the one request sends the one e-mail; the second answer's id names no request.
    const sent: MailMessage[] = [];
    const ctx: AdminContext = {
      db: db.kysely,
      config: testConfig(),
      mailer: {
        send: async (message) => {
          sent.push(message);
          return { via: 'smtp', to: message.to, server: 'test', messageId: `<${sent.length}@test>` };
        },
        close: () => {},
      },
      now: NOW,
      out: () => {},
      note: () => {},
    };
    await approve(ctx, firstId);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.to, 'ada@example.org');
    await assert.rejects(approve(ctx, id), /There is no key request/);
    assert.equal(sent.length, 1);
  });

  test('400: each invalid body says what is wrong with which field', async (t) => {
    const { app } = await buildTestApp(t);
    const { account_type: _, ...withoutAccountType } = VALID;
    const cases: [unknown, ReturnType<typeof apiError>][] = [
      [
        { ...VALID, email: 'nope' },
        apiError(
          'invalid_parameter',
          'email',
          "email must be an email address such as name@example.org; got 'nope'.",
          'Send email as an email address such as name@example.org.',
        ),
      ],
      [
        { ...VALID, email: 'ada@localhost' }, // valid format, refused by the stricter pattern
        apiError(
          'invalid_parameter',
          'email',
          "email must be an email address such as name@example.org; got 'ada@localhost'.",
          'Send email as an email address such as name@example.org.',
        ),
      ],
      [
        { ...VALID, name: '   ' },
        apiError(
          'invalid_parameter',
          'name',
          'name must not be blank.',
          'Send name as a text of 1 to 100 characters that is not only spaces.',
        ),
      ],
      [
        { ...VALID, intended_use: 'maps       ' }, // the padding does not count
        apiError(
          'parameter_out_of_range',
          'intended_use',
          "intended_use must be a text of 10 to 2000 characters; got 'maps'.",
          'Send intended_use as a text of 10 to 2000 characters.',
        ),
      ],
      [
        { ...VALID, organization: 'Analytical Engines GmbH' },
        apiError('unknown_parameter', 'organization', "Unknown field 'organization'.", "Did you mean 'organisation'?", [
          'organisation',
        ]),
      ],
      [
        withoutAccountType,
        apiError(
          'missing_parameter',
          'account_type',
          "The field 'account_type' is required.",
          'Add account_type=<one of private, commercial>.',
          ['private', 'commercial'],
        ),
      ],
      [
        { ...VALID, account_type: 'business' },
        apiError(
          'invalid_enum_value',
          'account_type',
          "account_type must be one of private, commercial; got 'business'.",
          'Use one of the values listed in alternatives.',
          ['private', 'commercial'],
        ),
      ],
      [
        [VALID],
        apiError(
          'invalid_body',
          null,
          'The body must be a JSON object.',
          'Send a JSON object with the fields name, email, organisation, account_type, intended_use.',
        ),
      ],
    ];
    for (const [payload, expected] of cases) {
      const { status, body } = await post(app, payload);
      assert.equal(status, 400, JSON.stringify(payload));
      assert.deepEqual(body, expected, JSON.stringify(payload));
    }
  });

  test('400 invalid_json for malformed JSON, saying where', async (t) => {
    const { app } = await buildTestApp(t);
    const { status, body } = await post(app, '{"name": "Ada",');
    assert.equal(status, 400);
    assert.deepEqual(
      body,
      apiError(
        'invalid_json',
        'body',
        'The body is not valid JSON at line 1, column 16: expected a member name in double quotes, found the end of the body.',
        'Correct the JSON at line 1, column 16 (names and strings in double quotes, no trailing commas, no comments), e.g. by writing it with JSON.stringify or a JSON library.',
      ),
    );
  });

  test('413 for a body over 64 KiB', async (t) => {
    const { app, db } = await buildTestApp(t);
    const { status, body } = await post(app, { ...VALID, intended_use: 'x'.repeat(64 * 1024) });
    assert.equal(status, 413);
    assert.deepEqual(
      body,
      apiError('payload_too_large', null, 'The request body is too large.', 'Send a smaller body.'),
    );
    assert.deepEqual(await db.kysely.selectFrom('key_requests').selectAll().execute(), []);
  });

  test('415 for every body but JSON, so no other site can post one with a plain HTML form', async (t) => {
    const { app, db } = await buildTestApp(t);
    const bodies: [string, string][] = [
      ['text/plain', JSON.stringify(VALID)],
      ['text/plain;charset=UTF-8', JSON.stringify(VALID)],
      ['application/x-www-form-urlencoded', new URLSearchParams(VALID).toString()],
      ['multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--x--\r\n`],
    ];
    for (const [type, payload] of bodies) {
      const { status, body } = await post(app, payload, { 'content-type': type });
      assert.equal(status, 415, type);
      assert.deepEqual(
        body,
        apiError(
          'unsupported_media_type',
          null,
          'This content type is not supported.',
          'Send JSON with Content-Type: application/json.',
          ['application/json'],
        ),
        type,
      );
    }
    assert.equal((await post(app, VALID, { 'content-type': 'application/json; charset=utf-8' })).status, 202);
    assert.equal((await db.kysely.selectFrom('key_requests').select('id').execute()).length, 1);
  });
});
