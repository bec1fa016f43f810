import { isUniqueViolation } from '../db/errors.js';
import type { KeyRequestRow } from '../db/schema.js';
import { createKeyRequest, findPendingRequest, type KeyRequestInput } from '../repositories/key-requests.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';

/**
 * Files a request for a developer key unless one from the same email is pending ('duplicate'). The
 * database's partial unique index decides between concurrent submissions.
 */
export async function fileKeyRequest(
  context: WriteContext,
  input: KeyRequestInput,
): Promise<KeyRequestRow | 'duplicate'> {
  if (await findPendingRequest(context.db, input.email)) return 'duplicate';
  try {
    return await inWriteTransaction(context, (trx) => createKeyRequest(trx, input, context.now));
  } catch (error) {
    if (isUniqueViolation(error)) return 'duplicate';
    throw error;
  }
}
