import { type Static, Type } from 'typebox';
import { VERIFICATION_METHODS } from '../domain/reliability.js';
import { Nullable, StringEnum } from './common.js';

export const VerificationRequestBody = Type.Object(
  {
    method: StringEnum(VERIFICATION_METHODS, {
      description:
        'How the helper proves who they are: id_document (an identity document), address_letter (a code sent by post), phone (a code by SMS).',
    }),
  },
  { additionalProperties: false },
);
export type VerificationRequestBody = Static<typeof VerificationRequestBody>;

export const VerificationSchema = Type.Object(
  {
    id: Type.String({ description: 'Verification id, prefixed `ver_`.' }),
    helper_id: Type.String(),
    method: StringEnum(VERIFICATION_METHODS),
    status: StringEnum(['pending', 'approved', 'rejected', 'revoked'] as const, {
      description: 'pending (the platform reviews it) -> approved or rejected; an approved one may be revoked later.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    decided_at: Nullable(Type.String({ format: 'date-time' })),
    reason: Nullable(Type.String(), { description: 'Why it was rejected or revoked.' }),
  },
  { $id: 'Verification', additionalProperties: false, description: 'A request to verify a helper and its decision.' },
);
export type Verification = Static<typeof VerificationSchema>;

export const VERIFICATION_RULES =
  'A helper profile is unverified until the platform verifies it; only verified, available helpers count in GET /v1/helpers/availability and in smart_eta_minutes. The helper’s account asks with POST /v1/helpers/{id}/verification-requests (202: the request, pending; asking again while one is pending answers that one). The platform decides with its admin command (approve, reject with a reason, or later revoke); the account hears of each decision by a private verification.decided event (webhooks) and by email. An approval makes reliability.verified true (and adds 10 points to reliability_score) in the next read.';
