import { isUniqueViolation } from '../db/errors.js';
import { newId } from '../domain/ids.js';
import { createKeyRequest, type KeyRequestInput } from '../repositories/key-requests.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';

/** What filing a key request answers: the same shape whether a request was filed or not. */
export interface KeyRequestReceipt {
  id: string;
  email: string;
  created_at: string;
}

/**
 * Files a request for a developer key. One request per email may be pending (the database's
 * partial unique index decides, also between concurrent submissions): another one for the same
 * address files nothing, and is answered alike, with an id and time of its own, so an anonymous
 * caller cannot learn whether an address has a request waiting, and the address gets one e-mail,
 * when the pending request is decided. Both ways try the same insert, so neither answers faster.
 */
export async function fileKeyRequest(context: WriteContext, input: KeyRequestInput): Promise<KeyRequestReceipt> {
  try {
    const row = await inWriteTransaction(context, (trx) => createKeyRequest(trx, input, context.now));
    return { id: row.id, email: row.email, created_at: row.created_at };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return { id: newId('kr'), email: input.email.toLowerCase(), created_at: context.now.toISOString() };
  }
}
