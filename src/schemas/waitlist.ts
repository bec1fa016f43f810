import { type Static, Type } from 'typebox';
import { Nullable, RefTo, StringEnum } from './common.js';

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'lapsed', 'left'] as const;

export const WaitlistEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'Waiting-list entry id, prefixed `wl_`.' }),
    listing_id: Type.String(),
    status: StringEnum(WAITLIST_STATUSES, {
      description:
        'waiting; offered (the time came free and is held for you until hold_until: book it); booked (you booked it while it was held); lapsed (the hold ended unbooked); left (you left the list).',
    }),
    start_date: Type.String({ format: 'date' }),
    end_date: Type.String({ format: 'date' }),
    start_at: Nullable(Type.String({ format: 'date-time' }), { description: 'By the hour: from; else null.' }),
    end_at: Nullable(Type.String({ format: 'date-time' }), { description: 'By the hour: to; else null.' }),
    place: Nullable(Type.Integer({ minimum: 1 }), {
      description: 'Your place among those waiting for the listing (1: next); null once no longer waiting.',
    }),
    hold_until: Nullable(Type.String({ format: 'date-time' }), {
      description: 'While offered: until when the time is held for you.',
    }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WaitlistEntry', additionalProperties: false },
);
export type WaitlistEntry = Static<typeof WaitlistEntrySchema>;

export const WaitlistEntryList = Type.Object(
  { data: Type.Array(RefTo(WaitlistEntrySchema)) },
  { additionalProperties: false },
);

export const WaitlistEntryParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64, description: 'Waiting-list entry id, e.g. wl_8a1b2c3d4e5f6a7b.' }) },
  { additionalProperties: false },
);

/** The waiting-list rules, for the OpenAPI descriptions. */
export const WAITLIST_RULES =
  'Waiting lists: when the time you want is taken, join the listing’s waiting list with the days (start_date, end_date) or hours (start_at, end_at) a booking would name, once per listing at a time. When the bookings holding that time are cancelled, declined or expire, a sweep offers it to the first waiting for it (waitlist.offered event, an e-mail) and holds it for them for WAITLIST_HOLD_HOURS (default 2): others cannot book it meanwhile (409 booking_conflict). Booked in time, the entry is booked; else it lapses and the next waiting is offered the time. Leave with DELETE /v1/waitlist/{id}.';
