import type { FastifyRequest } from 'fastify';
import type { ListingStatus } from '../../domain/statuses.js';
import { edgesOf, LISTING_MACHINE } from '../../domain/transitions.js';
import { RefTo } from '../../schemas/common.js';
import {
  ListingCreateBody,
  ListingPatchBody,
  listingLifeCycle,
  MAX_PHOTO_URL_LENGTH,
  MAX_PHOTOS,
} from '../../schemas/listing-writes.js';
import { ListingIdParams, ListingSchema } from '../../schemas/listings.js';
import { badRequest } from '../../services/errors.js';
import { createListing, type ListingAction, transitionListing, updateListing } from '../../services/listings.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

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

async function normalizeListingBody(request: FastifyRequest): Promise<void> {
  normalizeListingFields(request.body);
}

/** What validation judges is what will be stored: texts trimmed; photo URLs checked with advice (drafts too). */
export function normalizeListingFields(given: unknown): void {
  const body = given as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  for (const field of ['title', 'description']) {
    const value = body[field];
    if (typeof value === 'string') body[field] = value.trim();
  }
  if (Array.isArray(body.photos)) checkPhotos(body.photos);
}

const LISTING_ACTIONS: Record<ListingAction, { summary: string; description: string }> = {
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

const LIFE_CYCLE = listingLifeCycle();

export function listingWriteRoutes(app: Api, deps: RouteDeps): void {
  const { base } = deps;
  app.post(
    `${base}/listings`,
    {
      schema: {
        operationId: 'createListing',
        summary: 'List an item to lend',
        description: `Creates an available listing owned by the calling account (a developer key is needed); it is in the search, categories and statistics at once. The owner's public record starts empty (reliability from a fresh record). Enum values (category, condition) match case-insensitively. price_per_week_eur must be below 7 × price_per_day_eur.\n\n${LIFE_CYCLE}`,
        tags: ['Listings'],
        security: WRITE_SECURITY,
        body: ListingCreateBody,
        response: {
          201: created(RefTo(ListingSchema), 'The listing, exactly as GET /v1/listings/{id} shows it.'),
          ...errorResponses(400, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
      preValidation: [WRITE_HOOKS.preValidation, normalizeListingBody],
    },
    async (request, reply) => {
      const listing = await createListing(writeContext(request, deps), requireAccount(request), request.body);
      return sendCreated(reply, `${base}/listings/${listing.id}`, listing);
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
    async (request) =>
      updateListing(writeContext(request, deps), requireAccount(request), request.params.id, request.body, base),
  );

  for (const [action, docs] of Object.entries(LISTING_ACTIONS) as [
    ListingAction,
    (typeof LISTING_ACTIONS)[ListingAction],
  ][]) {
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
          response: {
            200: ok(RefTo(ListingSchema), `The listing, now ${to}.`),
            ...errorResponses(400, 404, 409, 413, 415, 422),
          },
        },
        ...WRITE_HOOKS,
      },
      async (request) =>
        transitionListing(writeContext(request, deps), requireAccount(request), request.params.id, action, base),
    );
  }
}
