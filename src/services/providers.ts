import type { Queryable } from '../db/queryable.js';
import type { AccountRow } from '../db/schema.js';
import { findProvider, replaceProvider } from '../repositories/providers.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import { type Provider, type ProviderBody, REQUIRED_PROVIDER_FIELDS } from '../schemas/providers.js';
import { ApiError } from './errors.js';

/** Stores the commercial account's legal details (a replacement); private accounts have none to give. */
export async function putProvider(context: WriteContext, account: AccountRow, body: ProviderBody): Promise<Provider> {
  if (account.account_type !== 'commercial') {
    throw new ApiError(403, 'forbidden', 'Only commercial accounts give provider details; this account is private.', {
      param: null,
      suggestion:
        'Private people post and lend without them, and their details are never shown. A business requests a key with account_type commercial.',
    });
  }
  return inWriteTransaction(context, (trx) => replaceProvider(trx, account.id, body, context.now));
}

export async function getProvider(db: Queryable, account: AccountRow): Promise<Provider> {
  const provider = await findProvider(db, account.id);
  if (provider) return provider;
  throw new ApiError(404, 'not_found', 'This account has given no provider details yet.', {
    param: null,
    suggestion:
      account.account_type === 'commercial'
        ? 'Give them with PUT /v1/me/provider before posting jobs or listings.'
        : 'Private accounts need none.',
  });
}

/**
 * A commercial account posts jobs and listings only once its provider details are complete
 * (§ 5 DDG; DSA Art. 30): else 409 provider_details_required naming what is missing. Private
 * accounts pass.
 */
export async function requireProviderDetails(db: Queryable, account: AccountRow, what: 'jobs' | 'listings') {
  if (account.account_type !== 'commercial') return;
  if (await findProvider(db, account.id)) return;
  throw new ApiError(
    409,
    'provider_details_required',
    `A commercial account posts ${what} only once its provider details are given; missing: ${REQUIRED_PROVIDER_FIELDS.join(', ')}.`,
    {
      param: null,
      suggestion:
        'Send them with PUT /v1/me/provider (legal name, address, e-mail, phone, register and VAT id where you have them, and the self-certification), then post again.',
      alternatives: REQUIRED_PROVIDER_FIELDS,
    },
  );
}
