import {
  BookingExtensionBody,
  BookingExtensionList,
  BookingExtensionParams,
  BookingExtensionSchema,
  EXTENSION_RULES,
} from '../../schemas/booking-extensions.js';
import { BookingIdParams } from '../../schemas/bookings.js';
import { NoQuery, RefTo } from '../../schemas/common.js';
import { decideBookingExtension, listBookingExtensions, requestExtension } from '../../services/booking-extensions.js';
import { errorResponses } from '../error-catalogue.js';
import { created, ok, sendCreated } from '../responses.js';
import type { Api, RouteDeps } from '../route-deps.js';
import { WRITE_HOOKS, WRITE_SECURITY } from '../write-body.js';
import { requireAccount, writeContext } from '../write-kit.js';

/** A booking's extensions (issue 35): the renter asks, the owner accepts or declines. */
export function bookingExtensionRoutes(app: Api, deps: RouteDeps): void {
  const { base, db } = deps;
  const settings = { requestTtlHours: deps.bookingRequestTtlHours, fees: deps.fees };
  app.post(
    `${base}/bookings/:id/extension-requests`,
    {
      schema: {
        operationId: 'requestBookingExtension',
        summary: 'Ask to keep the item longer',
        description: `The renter asks to extend a confirmed or active booking until a later end.\n\n${EXTENSION_RULES}`,
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: BookingIdParams,
        body: BookingExtensionBody,
        response: {
          201: created(
            RefTo(BookingExtensionSchema),
            'The extension: requested, or accepted at once (instant booking).',
          ),
          ...errorResponses(400, 403, 404, 409, 413, 415, 422),
        },
      },
      ...WRITE_HOOKS,
    },
    async (request, reply) => {
      const extension = await requestExtension(
        writeContext(request, deps),
        requireAccount(request),
        request.params.id,
        request.body,
        settings,
      );
      return sendCreated(reply, `${base}/bookings/${request.params.id}/extension-requests`, extension);
    },
  );

  app.get(
    `${base}/bookings/:id/extension-requests`,
    {
      schema: {
        operationId: 'listBookingExtensions',
        summary: "A booking's extensions",
        description: 'The extensions asked for a booking, oldest first, for its renter and its owner (else 404).',
        tags: ['Bookings'],
        security: WRITE_SECURITY,
        params: BookingIdParams,
        querystring: NoQuery,
        response: { 200: ok(BookingExtensionList, 'The extensions.'), ...errorResponses(400, 404) },
      },
      ...WRITE_HOOKS,
    },
    async (request) => listBookingExtensions(db, requireAccount(request), request.params.id),
  );

  for (const decision of ['accept', 'decline'] as const) {
    app.post(
      `${base}/bookings/:id/extension-requests/:extension_id/${decision}`,
      {
        schema: {
          operationId: decision === 'accept' ? 'acceptBookingExtension' : 'declineBookingExtension',
          summary: decision === 'accept' ? 'Accept an extension' : 'Decline an extension',
          description: `The listing's owner ${decision}s a waiting extension (the renter: 403). No body.\n\n${EXTENSION_RULES}`,
          tags: ['Bookings'],
          security: WRITE_SECURITY,
          params: BookingExtensionParams,
          response: {
            200: ok(
              RefTo(BookingExtensionSchema),
              `The extension, ${decision === 'accept' ? 'accepted' : 'declined'}.`,
            ),
            ...errorResponses(400, 403, 404, 409, 413, 415, 422),
          },
        },
        ...WRITE_HOOKS,
      },
      async (request) =>
        decideBookingExtension(
          writeContext(request, deps),
          requireAccount(request),
          request.params.id,
          request.params.extension_id,
          decision,
          settings,
        ),
    );
  }
}
