import { type Static, Type } from 'typebox';

export const AccountErasureBody = Type.Object(
  {
    confirm: Type.String({
      minLength: 1,
      maxLength: 320,
      format: 'email',
      description: 'The e-mail address of the account (GET /v1/me shows it): the proof that the erasure is meant.',
    }),
  },
  { additionalProperties: false },
);
export type AccountErasureBody = Static<typeof AccountErasureBody>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const AccountErasureSchema = Type.Object(
  {
    account_id: Type.String({ description: 'The erased account.' }),
    erased_at: Type.String({ format: 'date-time' }),
    done: Type.Object(
      {
        jobs_cancelled: Count('Open or assigned jobs cancelled (each with its job.status_changed event).'),
        listings_archived: Count('Listings archived (each with its listing.status_changed event).'),
        applications_withdrawn: Count('Pending applications withdrawn.'),
        bookings_cancelled: Count('Requested bookings cancelled, as renter or owner (each with its event).'),
        keys_revoked: Count('API keys revoked: this one answers 401 from now on.'),
        messages_erased: Count('Messages the account wrote whose text was erased.'),
        reviews_anonymised: Count('Reviews the account wrote whose text and author name were erased.'),
        events_deleted: Count('Events of the outbox about the account’s objects or for it alone, deleted.'),
        webhooks_deleted: Count('Webhooks deleted with their deliveries.'),
        saved_searches_deleted: Count('Saved searches deleted with their matches.'),
      },
      { additionalProperties: false, description: 'What the erasure did.' },
    ),
    kept: Type.Array(
      Type.Object(
        {
          record: Type.String(),
          what: Type.String(),
          reason: Type.String(),
          period: Type.String(),
        },
        { additionalProperties: false },
      ),
      { description: 'What stays, stripped of personal data, why, and for how long (docs/privacy.md).' },
    ),
  },
  { $id: 'AccountErasure', additionalProperties: false },
);
export type AccountErasure = Static<typeof AccountErasureSchema>;
