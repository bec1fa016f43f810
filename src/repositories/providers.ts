import type { Queryable } from '../db/queryable.js';
import type { ProvidersTable } from '../db/schema.js';
import type { Provider, ProviderBody, PublicProvider } from '../schemas/providers.js';
import type { WriteTransaction } from './write-transaction.js';

type ProviderRow = ProvidersTable;

function providerOf(row: ProviderRow): Provider {
  return {
    legal_name: row.legal_name,
    address: { street: row.street, plz: row.plz, city: row.city, country: row.country },
    email: row.email,
    phone: row.phone,
    register:
      row.register_court !== null && row.register_number !== null
        ? { court: row.register_court, number: row.register_number }
        : null,
    vat_id: row.vat_id,
    self_certified_at: row.self_certified_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function publicProviderOf(provider: Pick<Provider, 'legal_name' | 'address' | 'register'>): PublicProvider {
  return { legal_name: provider.legal_name, address: provider.address, register: provider.register };
}

export async function findProvider(db: Queryable, accountId: string): Promise<Provider | undefined> {
  const row = await db.selectFrom('providers').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  return row && providerOf(row);
}

/** Stores the whole set (a replacement); the first time also its created_at. */
export async function replaceProvider(
  trx: WriteTransaction,
  accountId: string,
  body: ProviderBody,
  now: Date,
): Promise<Provider> {
  const at = now.toISOString();
  const values = {
    legal_name: body.legal_name,
    street: body.address.street,
    plz: body.address.plz,
    city: body.address.city,
    country: body.address.country,
    email: body.email,
    phone: body.phone,
    register_court: body.register?.court ?? null,
    register_number: body.register?.number ?? null,
    vat_id: body.vat_id ?? null,
    self_certified_at: at,
    updated_at: at,
  };
  await trx
    .insertInto('providers')
    .values({ account_id: accountId, created_at: at, ...values })
    .onConflict((conflict) => conflict.column('account_id').doUpdateSet(values))
    .execute();
  const row = await trx
    .selectFrom('providers')
    .selectAll()
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return providerOf(row);
}

/**
 * The public part of the providers of these accounts (one query; none when no id is given):
 * jobs and listings of commercial accounts show it.
 */
export async function publicProviders(
  db: Queryable,
  accountIds: readonly (string | null)[],
): Promise<Map<string, PublicProvider>> {
  const ids = [...new Set(accountIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('providers').selectAll().where('account_id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.account_id, publicProviderOf(providerOf(row))]));
}
