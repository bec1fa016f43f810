import type { FastifyRequest } from 'fastify';
import type { AccountRow } from '../../db/schema.js';
import type { ListingStatus } from '../../domain/statuses.js';
import { LISTING_MACHINE } from '../../domain/transitions.js';
import {
  createListing,
  type ListingChange,
  type ListingValues,
  ownListing,
  setOwnListingStatus,
  updateOwnListing,
} from '../../repositories/listing-writes.js';
import { RefTo } from '../../schemas/common.js';
import { ListingIdParams, ListingSchema } from '../../schemas/listing.js';
import {
  IdempotencyHeaders,
  ListingCreateBody,
  ListingPatchBody,
  MAX_PHOTO_URL_LENGTH,
  MAX_PHOTOS,
} from '../../schemas/listing-writes.js';
import { badRequest } from '../../services/errors.js';
import { centsOf, WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { edgesOf, illegalTransition, locationOf, notFound, requireAccount, transitionsTable } from '../write-kit.js';
import { type Api, errorResponses, ok, type RouteDeps } from './route-kit.js';

/** Photo URLs with their own advice (ajv would only say "invalid"); the schema stays the final guard. */
function checkPhotos(photos: unknown[]): void {
  if (photos.length > MAX_PHOTOS) {
    throw badRequest(
      'parameter_out_of_range',
      'photos',
      `photos holds at most ${MAX_PHOTOS} URLs; got ${photos.length}.`,
      `Send the best ${MAX_PHOTOS}.`,
    );
  }
  photos.forEach((photo, i) => {
    if (typeof photo !== 'string') return;
    const param = `photos.${i}`;
    if (photo.length > MAX_PHOTO_URL_LENGTH) {
      throw badRequest(
        'parameter_out_of_range',
        param,
        `${param} is ${photo.length} characters long; at most ${MAX_PHOTO_URL_LENGTH} are allowed.`,
        'Send a shorter URL.',
      );
    }
    if (!URL.canParse(photo) || new URL(photo).protocol !== 'https:' || /\s/.test(photo)) {
      throw badRequest(
        'invalid_parameter',
        param,
        `${param} must be an https URL; got '${photo.slice(0, 100)}'.`,
        'Send photo URLs as https://host/path, without spaces.',
      );
    }
  });
}

/** What validation judges is what will be stored: texts trimmed; photo URLs checked with advice. */
async function normalizeListingBody(request: FastifyRequest): Promise<void> {
  const body = request.body as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  for (const field of ['title', 'description']) {
    const value = body[field];
    if (typeof value === 'string') body[field] = value.trim();
  }
  if (Array.isArray(body.photos)) checkPhotos(body.photos);
}

/** The columns a body sets: only those of the fields it has. */
function columnsOf(body: ListingPatchBody, account: AccountRow): ListingChange {
  const { price_per_day_eur: day, price_per_week_eur: week, deposit_eur: deposit, location, ...rest } = body;
  return {
    ...(rest.title !== undefined && { title: rest.title }),
    ...(rest.description !== undefined && { description: rest.description }),
    ...(rest.category !== undefined && { category: rest.category }),
    ...(rest.condition !== undefined && { condition: rest.condition }),
    ...(day !== undefined && { price_per_day_cents: centsOf(day, 'price_per_day_eur') }),
    ...(week !== undefined && { price_per_week_cents: week === null ? null : centsOf(week, 'price_per_week_eur') }),
    ...(deposit !== undefined && { deposit_cents: centsOf(deposit, 'deposit_eur') }),
    ...(location !== undefined && locationOf(location, account)),
    ...(rest.instant_booking !== undefined && { instant_booking: rest.instant_booking ? 1 : 0 }),
    ...(rest.photos !== undefined && { photos: JSON.stringify(rest.photos) }),
  };
}

/** A week must cost less than seven days, or the weekly price would never be used. */
function checkWeeklyPrice(dailyCents: number, weeklyCents: number | null, blame: string): void {
  if (weeklyCents === null || weeklyCents < 7 * dailyCents) return;
  const limit = (7 * dailyCents) / 100;
  const daily = dailyCents / 100;
  throw badRequest(
    'conflicting_parameters',
    blame,
    `price_per_week_eur (${weeklyCents / 100}) must be below 7 × price_per_day_eur (7 × ${daily} = ${limit}): a week may not cost as much as seven single days.`,
    `Send a price_per_week_eur below ${limit}, a higher price_per_day_eur, or price_per_week_eur: null for no weekly price.`,
  );
}

const LISTING_ACTIONS: Record<string, { summary: string; description: string }> = {
  pause: {
    summary: 'Pause a listing',
    description: 'available → paused: the listing leaves the search and takes no new bookings.',
  },
  resume: { summary: 'Resume a listing', description: 'paused → available: the listing is in the search again.' },
  archive: {
    summary: 'Archive a listing',
    description: 'available or paused → archived, for good: it can no longer be changed, resumed or booked.',
  },
};

const LIFE_CYCLE = `Listing life cycle (only the owner, the account that created the listing, changes it; for anyone else it answers 404):\n\n${transitionsTable(LISTING_MACHINE)}\n\nAn action not allowed from the current state answers 409 invalid_state_transition naming the state, with the allowed actions in alternatives. Existing bookings stand when a listing is paused or archived; the owner declines or cancels them.`;

export function listingWriteRoutes(app: Api, { base, db, now }: RouteDeps): void {
  app.post(
    `${base}/listings`,
    {
      schema: {
        operationId: 'createListing',
        summary: 'List an item to lend',
        description: `Creates an available listing owned by the calling account (a developer key is needed); it is in the search, categories and statistics at once. The owner's public record starts empty (reliability from a fresh record). Enum values (category, condition) match case-insensitively. price_per_week_eur must be below 7 × price_per_day_eur.\n\n${LIFE_CYCLE}`,
        tags: ['Listings'],
        security: WRITE_SECURITY,
        headers: IdempotencyHeaders,
        body: ListingCreateBody,
        response: {
          201: ok(RefTo(ListingSchema), 'The listing, exactly as GET /v1/listings/{id} shows it.'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
      preValidation: [WRITE_HOOKS.preValidation, normalizeListingBody],
    },
    async (request, reply) => {
      const account = requireAccount(request);
      const values = columnsOf(request.body, account) as ListingValues;
      checkWeeklyPrice(values.price_per_day_cents, values.price_per_week_cents ?? null, 'price_per_week_eur');
      return reply.code(201).send(await createListing(db, account, values, now()));
    },
  );

  app.patch(
    `${base}/listings/:id`,
    {
      schema: {
        operationId: 'updateListing',
        summary: 'Change a listing',
        description: `Changes the fields sent and keeps the others (the owner only; an archived listing cannot be changed: 409). The change is visible at once everywhere. Existing bookings keep the prices they were made at.\n\n${LIFE_CYCLE}`,
        tags: ['Listings'],
        security: WRITE_SECURITY,
        params: ListingIdParams,
        body: ListingPatchBody,
        response: {
          200: ok(RefTo(ListingSchema), 'The listing as changed.'),
          ...errorResponses(400, 404, 409, 413, 415),
        },
      },
      ...WRITE_HOOKS,
      preValidation: [WRITE_HOOKS.preValidation, normalizeListingBody],
    },
    async (request) => {
      const account = requireAccount(request);
      const { id } = request.params;
      const change = columnsOf(request.body, account);
      const result = await updateOwnListing(
        db,
        id,
        account.id,
        (current) => {
          if (change.price_per_day_cents === undefined && change.price_per_week_cents === undefined) return change;
          checkWeeklyPrice(
            change.price_per_day_cents ?? current.price_per_day_cents,
            change.price_per_week_cents !== undefined ? change.price_per_week_cents : current.price_per_week_cents,
            change.price_per_week_cents === undefined ? 'price_per_day_eur' : 'price_per_week_eur',
          );
          return change;
        },
        now(),
      );
      if (!result.updated && !result.current) throw notFound('listing', id, `GET ${base}/listings`);
      if (!result.updated) throw illegalTransition('listing', 'archived', 'update', LISTING_MACHINE);
      return result.listing;
    },
  );

  for (const [action, docs] of Object.entries(LISTING_ACTIONS)) {
    const { from, to } = edgesOf<ListingStatus>(LISTING_MACHINE, action);
    app.post(
      `${base}/listings/:id/${action}`,
      {
        schema: {
          operationId: `${action}Listing`,
          summary: docs.summary,
          description: `${docs.description} No body (one sent is ignored). Atomic: the status changes only if it still is ${from.join(' or ')}.\n\n${LIFE_CYCLE}`,
          tags: ['Listings'],
          security: WRITE_SECURITY,
          params: ListingIdParams,
          headers: IdempotencyHeaders,
          response: {
            200: ok(RefTo(ListingSchema), `The listing, now ${to}.`),
            ...errorResponses(400, 404, 409, 413, 415, 422),
          },
        },
        ...WRITE_HOOKS,
      },
      async (request) => {
        const account = requireAccount(request);
        const { id } = request.params;
        const changed = await setOwnListingStatus(db, id, account.id, from, to, now());
        if (changed) return changed;
        const current = await ownListing(db, id, account.id);
        if (!current) throw notFound('listing', id, `GET ${base}/listings`);
        throw illegalTransition('listing', current.status, action, LISTING_MACHINE);
      },
    );
  }
}
