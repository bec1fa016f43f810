import type { AccountRow } from '../db/schema.js';
import { type PlacePoint, placePoint } from '../domain/approximate-place.js';
import { type ResolvedLocation, resolveLocation } from '../domain/places.js';
import { eurToCents } from '../domain/pricing.js';
import { allowedActions, type Machine } from '../domain/transitions.js';
import type { LocationInput } from '../schemas/location-input.js';
import { ApiError, badRequest } from './errors.js';

/**
 * 404 for an id that does not exist or that the caller may not touch: the same answer for both, so
 * ids of others leak nothing.
 */
export function notFound(resource: string, id: string, listPath: string): ApiError {
  return new ApiError(404, 'not_found', `No ${resource} with the id '${id}' is yours to change.`, {
    param: 'id',
    suggestion: `Check the id; you can change only what your account created or what concerns it. ${listPath} lists what exists.`,
  });
}

/** 409 for an action the current state does not allow, with the actions that are allowed. */
export function illegalTransition(resource: string, current: string, action: string, machine: Machine): ApiError {
  const allowed = allowedActions(machine, current);
  return new ApiError(
    409,
    'invalid_state_transition',
    `The ${resource} is ${current}; '${action}' is not possible from there.`,
    {
      param: null,
      suggestion:
        allowed.length > 0
          ? `From ${current} you can: ${allowed.join(', ')}.`
          : `This ${resource} is ${current} and cannot change any more.`,
      alternatives: allowed,
    },
  );
}

/**
 * The stored location of a body's `location` (the place, and the point shown for it keyed by the
 * writing account's salt), or a 400 that says what to send instead.
 */
export function locationOf(
  input: LocationInput,
  account: Pick<AccountRow, 'place_salt'>,
  field = 'location',
): ResolvedLocation & PlacePoint {
  const resolved = resolveLocation(input);
  if (!('problem' in resolved)) return { ...resolved, ...placePoint(resolved, account.place_salt) };
  if (resolved.problem === 'unknown_plz') {
    throw new ApiError(400, 'invalid_location', `${field}.plz is not a postal code of the service area.`, {
      param: `${field}.plz`,
      suggestion: 'Send a postal code of Karlsruhe or a town within 50 km, or coordinates as {lat, lng}.',
      alternatives: resolved.similar,
    });
  }
  throw new ApiError(
    400,
    'invalid_location',
    `${field} is ${resolved.distanceKm.toFixed(1)} km from Karlsruhe; the service area is 50 km around it.`,
    {
      param: field,
      suggestion: 'Send a location within 50 km of Karlsruhe (49.0069, 8.4037).',
    },
  );
}

/** EUR to cents, refusing fractions of a cent. */
export function centsOf(eur: number, field: string): number {
  const cents = eurToCents(eur);
  if (Math.abs(eur * 100 - cents) > 1e-6) {
    throw badRequest(
      'invalid_parameter',
      field,
      `${field} has more than two decimals: ${eur}.`,
      `Send ${field} in EUR to the cent, e.g. ${(cents / 100).toFixed(2)}.`,
    );
  }
  return cents;
}
