import type { Queryable } from '../db/queryable.js';
import type { AccountRow } from '../db/schema.js';
import type { Category } from '../domain/categories.js';
import {
  findHelperProfile,
  type HelperValues,
  insertHelperProfile,
  isOwnHelper,
  isRemovedHelper,
  updateHelperProfile,
} from '../repositories/helper-profiles.js';
import { inWriteTransaction, type WriteContext } from '../repositories/write-transaction.js';
import {
  type AvailabilityWindow,
  type HelperCreateBody,
  type HelperProfile,
  type HelperUpdateBody,
  WEEKDAYS,
} from '../schemas/helper-profiles.js';
import { ApiError, badRequest } from './errors.js';
import { centsOf, locationOf, notFound } from './write-rules.js';

/** Registers a helper profile for the account, unverified and with a fresh record; returns it as shown. */
export async function createHelper(
  context: WriteContext,
  account: AccountRow,
  body: HelperCreateBody,
): Promise<HelperProfile> {
  // The create schema requires the other fields and fills in the defaults.
  const columns = helperColumns(body, account) as HelperValues;
  const categories = body.categories as Category[];
  const id = await inWriteTransaction(context, (trx) =>
    insertHelperProfile(trx, account.id, columns, categories, context.now),
  );
  return getHelper(context.db, id);
}

/** Any helper's public profile; 404 for no such helper, and for one a moderation decision removed (but to its own account). */
export async function getHelper(db: Queryable, id: string, viewer: string | null = null): Promise<HelperProfile> {
  const profile = await findHelperProfile(db, id);
  if (!profile) throw unknownHelper(id);
  if (await isRemovedHelper(db, id)) {
    if (viewer === null || !(await isOwnHelper(db, id, viewer))) throw unknownHelper(id);
  }
  return profile;
}

/** Changes the given fields of the account's helper profile (categories replace the old ones); 404 for anyone else's. */
export async function updateHelper(
  context: WriteContext,
  account: AccountRow,
  id: string,
  body: HelperUpdateBody,
): Promise<HelperProfile> {
  const categories = body.categories as Category[] | undefined;
  const columns = helperColumns(body, account);
  await inWriteTransaction(context, async (trx) => {
    // Not the account's: thrown in the transaction, so nothing commits (not even the key's mark).
    if (!(await updateHelperProfile(trx, id, account.id, columns, categories)))
      throw notFound('helper', id, 'GET /v1/helpers/availability');
  });
  return getHelper(context.db, id);
}

/** The window as stored: weekdays in week order; 400 unless `to` comes after `from`. */
function availabilityJson(window: AvailabilityWindow | null): string | null {
  if (window === null) return null;
  if (window.to <= window.from) {
    throw badRequest(
      'conflicting_parameters',
      'availability.to',
      `availability.to (${window.to}) must come after availability.from (${window.from}).`,
      'Send working hours within one day, e.g. {"from": "08:00", "to": "18:00"}; null means any time.',
      ['availability.from', 'availability.to'],
    );
  }
  const weekdays = WEEKDAYS.filter((day) => window.weekdays.includes(day));
  return JSON.stringify({ weekdays, from: window.from, to: window.to });
}

/** The columns a create or change body sets; only the fields it has. */
function helperColumns(body: HelperUpdateBody, account: AccountRow): Partial<HelperValues> {
  const { location, hourly_rate_eur, availability, available, categories: _categories, ...same } = body;
  const columns: Partial<HelperValues> = { ...same };
  if (location) Object.assign(columns, locationOf(location, account));
  if (hourly_rate_eur !== undefined) columns.hourly_rate_cents = centsOf(hourly_rate_eur, 'hourly_rate_eur');
  if (availability !== undefined) columns.availability = availabilityJson(availability);
  if (available !== undefined) columns.available = available ? 1 : 0;
  return columns;
}

function unknownHelper(id: string): ApiError {
  return new ApiError(404, 'not_found', `No helper has the id '${id}'.`, {
    param: 'id',
    suggestion: 'Check the id (helper ids start with hlp_); GET /v1/helpers/availability lists verified helpers.',
  });
}
