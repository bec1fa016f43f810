import type { Queryable } from '../db/queryable.js';
import type { AccountRow } from '../db/schema.js';
import { ERASURE_KEPT } from '../domain/erasure.js';
import { eraseAccountRows } from '../repositories/account-erasure.js';
import { sectionRows } from '../repositories/account-export.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import type { AccountErasure } from '../schemas/account-data.js';
import { EXPORT_FORMAT, EXPORT_SECTIONS, EXPORT_VERSION } from '../schemas/account-export.js';
import { ApiError, badRequest } from './errors.js';

/**
 * The account's export as JSON text, piece by piece: each section is read a page at a time and
 * written as it comes, so memory stays flat however much the account holds. Sections are read one
 * after another (no snapshot across them: a write meanwhile may show in a later section only).
 */
export async function* exportAccount(db: Queryable, account: AccountRow, now: Date): AsyncGenerator<string> {
  const head = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exported_at: now.toISOString() };
  yield JSON.stringify(head).slice(0, -1);
  for (const section of EXPORT_SECTIONS) {
    yield `,${JSON.stringify(section.key)}:`;
    if (!section.many) {
      let one: unknown = null;
      for await (const rows of sectionRows(db, section.key, account)) one = rows[0] ?? null;
      yield JSON.stringify(one);
      continue;
    }
    yield '[';
    let first = true;
    for await (const rows of sectionRows(db, section.key, account)) {
      const text = rows.map((row) => JSON.stringify(row)).join(',');
      yield first ? text : `,${text}`;
      first = false;
    }
    yield ']';
  }
  yield '}\n';
}

/** Accounts with an export under way in this process: one at a time each. */
const exporting = new Set<string>();

/** Runs `exportAccount` for the account unless one of its exports is under way (409). */
export function exclusiveExport(db: Queryable, account: AccountRow, now: Date): AsyncGenerator<string> {
  if (exporting.has(account.id)) {
    throw new ApiError(409, 'export_in_progress', 'An export of this account is being sent already.', {
      param: null,
      suggestion: 'Wait for it to finish, then ask again if you still need a new one.',
    });
  }
  exporting.add(account.id);
  const inner = exportAccount(db, account, now);
  return (async function* () {
    try {
      yield* inner;
    } finally {
      exporting.delete(account.id);
    }
  })();
}

/**
 * Erases the account (GDPR Art. 17) when `confirm` is its e-mail address (any case, no spaces
 * around); anything else is a 400 and erases nothing. What is done is counted in the answer, what
 * is kept is listed with its reason (docs/privacy.md).
 */
export async function eraseAccount(
  context: WriteContext,
  account: AccountRow,
  confirm: string,
  requestTtlHours: number,
): Promise<AccountErasure> {
  if (confirm.trim().toLowerCase() !== account.email.toLowerCase()) {
    throw badRequest(
      'confirmation_mismatch',
      'confirm',
      'confirm is not the e-mail address of the account this key belongs to; nothing was erased.',
      'Send {"confirm": "<your account’s e-mail address>"} (GET /v1/me shows it) to erase the account for good.',
    );
  }
  const done = await inWriteTransaction(context, (trx) =>
    eraseAccountRows(trx, account, context.now, requestTtlHours, context.claim?.key ?? null),
  );
  if (!done) {
    throw new ApiError(409, 'invalid_state_transition', 'This account is erased already.', {
      param: null,
      suggestion: 'Nothing is left to erase.',
    });
  }
  return { account_id: account.id, erased_at: context.now.toISOString(), done, kept: [...ERASURE_KEPT] };
}
