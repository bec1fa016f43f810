import { Value } from 'typebox/value';
import type { ApiKeyRow } from '../db/schema.js';
import { maskedKey } from '../domain/api-keys.js';
import { findKey, issueKeyForAccount, keyState, listKeys, revokeKey, rotateKey } from '../repositories/access.js';
import { KeyRequestBody } from '../schemas/access.js';
import type { AdminContext, AdminOptions } from './admin-context.js';
import { printable } from './admin-requests.js';

/** The same rules as the public form and the JSON endpoint (only the schema: no Fastify here). */
const FIELDS = KeyRequestBody.properties;

function stateOf(key: ApiKeyRow, now: Date): string {
  const state = keyState(key, now);
  if (state === 'expiring') return `expiring ${key.expires_at} (successor ${key.replaced_by})`;
  if (state === 'expired') return `expired ${key.expires_at}`;
  if (state === 'revoked') return `revoked ${key.revoked_at}`;
  return state;
}

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

export async function listKeysTable(ctx: AdminContext): Promise<void> {
  const keys = await listKeys(ctx.db);
  if (keys.length === 0) {
    ctx.out('No keys yet. `requests approve <kr_id>` or `keys create` issues one.');
    return;
  }
  const header = ['ID', 'EMAIL', 'TYPE', 'KEY', 'CREATED', 'STATE'];
  const rows = keys.map((key) => [
    key.id,
    printable(key.email),
    key.account_type,
    maskedKey(key.last4),
    key.created_at,
    stateOf(key, ctx.now),
  ]);
  for (const line of table([header, ...rows])) ctx.out(line);
}

/** Prints a new key: what it is first, then the key alone on the last line, for scripts to take. */
function showKey(ctx: AdminContext, key: string): void {
  ctx.out('The key is shown this once; only its hash is stored:');
  ctx.out(key);
}

/** An option's value, trimmed as the form trims it; a missing or blank one is an error. */
function given(option: string, value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (!trimmed) throw new Error(`keys create needs --${option}.`);
  return trimmed;
}

/**
 * A text option checked against its KeyRequestBody field (visible text, no direction controls:
 * domain/text.ts); control characters are refused on top
 * (the value ends up in terminals and emails).
 */
function text(option: 'name' | 'organisation', value: string | undefined): string {
  const trimmed = given(option, value);
  const schema = FIELDS[option];
  if (!Value.Check(schema, trimmed) || /\p{Cc}/u.test(trimmed))
    throw new Error(
      `--${option} must be at most ${(schema as { maxLength?: number }).maxLength} visible characters, without control characters or direction controls.`,
    );
  return trimmed;
}

/** A key without a request (for partners and our own tools); an existing account is reused by email. */
export async function createKey(ctx: AdminContext, _id: string, options: AdminOptions): Promise<void> {
  const email = given('email', options.email).toLowerCase();
  if (!Value.Check(FIELDS.email, email))
    throw new Error(`--email must be an email address; got '${printable(email)}'.`);
  const name = text('name', options.name);
  const organisation = options.organisation === undefined ? null : text('organisation', options.organisation);
  const wanted = { name, email, organisation, account_type: options.commercial ? 'commercial' : 'private' } as const;
  const { account, issued } = await issueKeyForAccount(ctx.db, wanted, ctx.now);
  const { row } = account;
  if (!account.created) {
    ctx.note(
      `${email} already has account ${row.id} (${printable(row.name)}, ${row.account_type}); the key belongs to it, and --name, --organisation and --commercial were not applied.`,
    );
  }
  ctx.out(`Created key ${issued.row.id} (${maskedKey(issued.row.last4)}) for account ${row.id} <${email}>.`);
  showKey(ctx, issued.key);
}

/** A key by id, or an error naming what is wrong with it for the command at hand. */
async function keyFor(ctx: AdminContext, id: string, action: 'rotate' | 'revoke'): Promise<ApiKeyRow> {
  const key = await findKey(ctx.db, id);
  if (!key) throw new Error(`There is no key ${id}; \`keys list\` shows them all.`);
  const state = keyState(key, ctx.now);
  if (state === 'revoked') throw new Error(`Key ${id} is already revoked (at ${key.revoked_at}).`);
  if (action === 'rotate' && state === 'expiring')
    throw new Error(`Key ${id} was already rotated: its successor is ${key.replaced_by}; rotate that one instead.`);
  if (action === 'rotate' && state === 'expired')
    throw new Error(`Key ${id} expired at ${key.expires_at} after a rotation; its successor is ${key.replaced_by}.`);
  return key;
}

export async function rotate(ctx: AdminContext, id: string): Promise<void> {
  const old = await keyFor(ctx, id, 'rotate');
  const grace = ctx.config.KEY_ROTATION_GRACE_HOURS;
  // In a transaction of its own (rotateKey).
  const issued = await rotateKey(ctx.db, id, grace, ctx.now);
  if (!issued) throw new Error(`Key ${id} changed a moment ago; \`keys list\` shows its state.`);
  const until = new Date(ctx.now.getTime() + grace * 3_600_000).toISOString();
  const oldUntil = grace === 0 ? 'it stops working now' : `it keeps working until ${until} (${grace} hours)`;
  ctx.out(`Rotated ${id} (${maskedKey(old.last4)}): ${oldUntil}.`);
  ctx.out(`New key ${issued.row.id} (${maskedKey(issued.row.last4)}) for account ${issued.row.account_id}.`);
  showKey(ctx, issued.key);
}

export async function revoke(ctx: AdminContext, id: string): Promise<void> {
  const key = await keyFor(ctx, id, 'revoke');
  if (!(await revokeKey(ctx.db, id, ctx.now))) throw new Error(`Key ${id} was revoked a moment ago.`);
  ctx.out(`Revoked ${id} (${maskedKey(key.last4)}): requests with it are refused from now on.`);
}
