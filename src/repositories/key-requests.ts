import type { AccountType, KeyRequestRow } from '../db/schema.js';
import { newId } from '../domain/ids.js';
import { findOrCreateAccount, type IssuedKey, issueKey } from './access.js';
import { isUniqueViolation, type Queryable } from './db.js';

export interface KeyRequestInput {
  name: string;
  email: string;
  organisation: string | null;
  account_type: AccountType;
  intended_use: string;
}

/** A pending request from the same email, if there is one (emails compare in lower case). */
export async function findPendingRequest(db: Queryable, email: string): Promise<KeyRequestRow | undefined> {
  return db
    .selectFrom('key_requests')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

export async function createKeyRequest(db: Queryable, input: KeyRequestInput, now: Date): Promise<KeyRequestRow> {
  const row: KeyRequestRow = {
    id: newId('kr'),
    ...input,
    email: input.email.toLowerCase(),
    status: 'pending',
    created_at: now.toISOString(),
    decided_at: null,
    reason: null,
    key_id: null,
  };
  await db.insertInto('key_requests').values(row).execute();
  return row;
}

/**
 * Files a request unless one from the same email is pending ('duplicate'). The database's partial
 * unique index decides between concurrent submissions.
 */
export async function fileKeyRequest(
  db: Queryable,
  input: KeyRequestInput,
  now: Date,
): Promise<KeyRequestRow | 'duplicate'> {
  if (await findPendingRequest(db, input.email)) return 'duplicate';
  try {
    return await createKeyRequest(db, input, now);
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

export async function listPendingRequests(db: Queryable): Promise<KeyRequestRow[]> {
  return db
    .selectFrom('key_requests')
    .selectAll()
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findRequest(db: Queryable, id: string): Promise<KeyRequestRow | undefined> {
  return db.selectFrom('key_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Approves a pending request: its account (found or created by email) gets a new key. Returns
 * undefined when the request is not pending. Run it in a transaction.
 */
export async function approveRequest(
  db: Queryable,
  id: string,
  now: Date,
): Promise<{ request: KeyRequestRow; issued: IssuedKey } | undefined> {
  const request = await findRequest(db, id);
  if (request?.status !== 'pending') return undefined;
  const account = await findOrCreateAccount(db, request, now);
  const issued = await issueKey(db, account.id, now);
  const decided = { status: 'approved' as const, decided_at: now.toISOString(), key_id: issued.row.id };
  await db.updateTable('key_requests').set(decided).where('id', '=', id).execute();
  return { request: { ...request, ...decided }, issued };
}

/** Rejects a pending request with a reason; returns undefined when it is not pending. */
export async function rejectRequest(
  db: Queryable,
  id: string,
  reason: string,
  now: Date,
): Promise<KeyRequestRow | undefined> {
  const request = await findRequest(db, id);
  if (request?.status !== 'pending') return undefined;
  const decided = { status: 'rejected' as const, decided_at: now.toISOString(), reason };
  await db.updateTable('key_requests').set(decided).where('id', '=', id).execute();
  return { ...request, ...decided };
}
