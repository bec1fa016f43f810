/**
 * Issue 31: expired sign-in codes (each holds the address it went to) and ended sessions are
 * forgotten by a periodic sweep (background.ts), not only when somebody next asks for a code or
 * signs in; live codes and sessions stay. On the run's engine.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forgetEndedSignIns } from '../../src/services/sign-in.js';
import { createKey, NOW } from '../helpers/app.js';
import { createTestDb } from '../helpers/database.js';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

test('the sweep forgets expired codes and ended sessions of every account, and nothing live', async (t) => {
  const db = await createTestDb(t);
  const one = await createKey(db, { email: 'one@example.org' });
  const two = await createKey(db, { email: 'two@example.org' });
  const code = (id: string, email: string, expiresInMs: number, accountId: string | null) => ({
    id,
    challenge_hash: id.padEnd(64, '0'),
    code_hash: 'c'.repeat(64),
    purpose: accountId ? ('signin' as const) : ('signup' as const),
    email,
    name: accountId ? null : 'Neu',
    account_type: accountId ? null : ('private' as const),
    account_id: accountId,
    tries: 0,
    created_at: at(expiresInMs - 10 * MINUTE_MS),
    expires_at: at(expiresInMs),
  });
  await db.kysely
    .insertInto('sign_in_codes')
    .values([
      code('sic_gone_nobody', 'nobody@example.org', -MINUTE_MS, null),
      code('sic_gone_one', 'one@example.org', -DAY_MS, one.accountId),
      code('sic_live_two', 'two@example.org', 5 * MINUTE_MS, two.accountId),
    ])
    .execute();
  const session = (id: string, accountId: string, lastSeenMs: number, expiresInMs: number) => ({
    id,
    token_hash: id.padEnd(64, '0'),
    account_id: accountId,
    user_agent: null,
    created_at: at(-20 * DAY_MS),
    last_seen_at: at(lastSeenMs),
    expires_at: at(expiresInMs),
  });
  await db.kysely
    .insertInto('sessions')
    .values([
      session('ses_expired', one.accountId, -MINUTE_MS, -MINUTE_MS),
      session('ses_idle', two.accountId, -8 * DAY_MS, 10 * DAY_MS),
      session('ses_live_one', one.accountId, -6 * DAY_MS, 10 * DAY_MS),
      session('ses_live_two', two.accountId, -MINUTE_MS, 10 * DAY_MS),
    ])
    .execute();

  assert.equal(await forgetEndedSignIns(db.kysely, NOW), 4);
  const codes = await db.kysely.selectFrom('sign_in_codes').select('id').orderBy('id').execute();
  assert.deepEqual(
    codes.map((row) => row.id),
    ['sic_live_two'],
  );
  const sessions = await db.kysely.selectFrom('sessions').select('id').orderBy('id').execute();
  assert.deepEqual(
    sessions.map((row) => row.id),
    ['ses_live_one', 'ses_live_two'],
  );
  assert.equal(await forgetEndedSignIns(db.kysely, NOW), 0, 'nothing more to forget');
});
