import { type Static, Type } from 'typebox';
import { IdParams, Nullable, StringEnum, Text } from './common.js';
import { Euros } from './job-writes.js';

export const CLAIM_STATUSES = ['open', 'accepted', 'disputed', 'decided'] as const;
const At = (description: string) => Nullable(Type.String({ format: 'date-time' }), { description });

/** A damage claim as one of its parties (the owner who filed it, the renter) reads it (issue 32). */
export const ClaimSchema = Type.Object(
  {
    id: Type.String({ description: 'clm_…' }),
    booking_id: Type.String(),
    payment_id: Type.String({ description: 'The deposit it is taken from.' }),
    role: StringEnum(['owner', 'renter'] as const, { description: 'Your side of it.' }),
    status: StringEnum(CLAIM_STATUSES, {
      description:
        'open (the renter answers), accepted (by the renter), disputed (an operator decides), decided (by an operator).',
    }),
    amount_eur: Type.Number({ minimum: 0, description: 'What the owner claims, at most the deposit.' }),
    text: Type.String({ description: "The owner's account of the damage." }),
    photos: Type.Array(Type.String({ format: 'uri' }), { description: 'https links to photos of the damage.' }),
    response_text: Nullable(Type.String(), { description: "The renter's side, once disputed." }),
    decided_amount_eur: Nullable(Type.Number({ minimum: 0 }), { description: 'What an operator decided.' }),
    explanation: Nullable(Type.String(), { description: "The operator's reasons." }),
    kept_eur: Type.Number({
      minimum: 0,
      description:
        'What the owner keeps of the deposit: the claimed amount once accepted, the decided amount once decided, else 0.',
    }),
    next_actions: Type.Array(StringEnum(['accept', 'dispute'] as const), {
      description: 'What you can do: POST /v1/claims/{id}/<action>.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    answered_at: At('When the renter accepted or disputed.'),
    decided_at: At('When an operator decided.'),
  },
  { $id: 'Claim', additionalProperties: false },
);
export type Claim = Static<typeof ClaimSchema>;

export const ClaimBody = Type.Object(
  {
    amount_eur: Euros(0.01, 100_000, 'What you claim of the deposit in EUR, at most the deposit.'),
    text: Text(10, 2000, 'What was damaged or is missing, and how the amount was reached.'),
    photos: Type.Optional(
      Type.Array(Type.String({ format: 'uri', pattern: '^https://', maxLength: 2000 }), {
        maxItems: 10,
        description: 'Up to 10 https links to photos of the damage.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ClaimBody = Static<typeof ClaimBody>;

export const DisputeBody = Type.Object(
  { text: Text(10, 2000, 'Your side: why the claim is wrong or too high.') },
  { additionalProperties: false },
);
export type DisputeBody = Static<typeof DisputeBody>;

export const ClaimIdParams = IdParams('Claim', 'clm_3c1a9e7f5b2d4680');

/** The rules, said on each claim operation. */
export const claimRules = (windowHours: number) =>
  `**Damage claims.** Within ${windowHours} hours of a booking's return (CLAIM_WINDOW_HOURS), the listing's owner may claim up to the held deposit (one claim per booking; the deposit must have been confirmed received and not yet released). The renter accepts it or disputes it with their side; an operator decides a disputed claim (any amount up to the claim, with reasons). The owner then releases the deposit (POST /v1/payments/{id}/release), keeping what was accepted or decided. Both sides get claim.created and claim.status_changed events. Only the two parties see a claim (else 404).`;
