import { type Static, Type } from 'typebox';
import { Nullable } from './common.js';

export const ERROR_CODES = [
  'invalid_parameter',
  'unknown_parameter',
  'duplicate_parameter',
  'missing_parameter',
  'parameter_out_of_range',
  'invalid_enum_value',
  'conflicting_parameters',
  'not_found',
  'invalid_api_key',
  'invalid_token',
  'invalid_dpop_proof',
  'insufficient_scope',
  'not_delegable',
  'rate_limit_exceeded',
  'too_many_streams',
  'account_limit_reached',
  'authentication_required',
  'forbidden',
  'invalid_state_transition',
  'limit_reached',
  'already_applied',
  'already_reviewed',
  'already_replied',
  'not_reviewable',
  'completion_too_early',
  'completion_not_final',
  'review_window_closed',
  'booking_conflict',
  'outside_pick_up_window',
  'claim_window_closed',
  'already_claimed',
  'claim_pending',
  'no_show_too_early',
  'no_show_window_closed',
  'payouts_unavailable',
  'payee_not_ready',
  'invalid_signature',
  'provider_refused',
  'no_counterpart',
  'idempotency_key_reused',
  'idempotency_in_progress',
  'idempotency_response_lost',
  'invalid_location',
  'unknown_place',
  'ambiguous_place',
  'webhook_url_not_allowed',
  'confirmation_mismatch',
  'export_in_progress',
  'provider_details_required',
  'account_suspended',
  'appeal_not_allowed',
  'route_not_found',
  'method_not_allowed',
  'payload_too_large',
  'headers_too_large',
  'request_timeout',
  'malformed_request',
  'unsupported_media_type',
  'invalid_body',
  'invalid_json',
  'internal_error',
  'service_unavailable',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

const ResourceAlternative = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    url: Type.String({ description: 'Path of the resource under this API.' }),
  },
  { additionalProperties: false },
);

/** The most problems one answer lists in `errors`: enough for a whole form, bounded for a hostile body. */
export const MAX_ERROR_DETAILS = 20;

const ErrorDetail = Type.Object(
  {
    error: Type.Unsafe<ErrorCode>({ type: 'string', description: 'Its code, one of those of `error`.' }),
    param: Nullable(Type.String(), { description: 'The parameter or field, as `param` names one.' }),
    message: Type.String({ description: 'What is wrong with it, for people.' }),
    suggestion: Type.String({ description: 'What to send instead.' }),
  },
  { additionalProperties: false },
);

export const ApiErrorSchema = Type.Object(
  {
    error: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: [...ERROR_CODES],
      description: 'Stable machine-readable error code.',
    }),
    message: Type.String({ description: 'What went wrong, for people.' }),
    param: Nullable(Type.String(), { description: 'The offending parameter or field, when one is to blame.' }),
    suggestion: Type.String({ description: 'What the caller should do next.' }),
    alternatives: Type.Array(Type.Union([Type.String(), ResourceAlternative]), {
      description:
        'Things to try instead: valid values or parameter names (strings) or existing resources (objects with id, title and url).',
    }),
    alternatives_count: Type.Integer({ minimum: 0, description: 'Length of alternatives.' }),
    errors: Type.Optional(
      Type.Array(ErrorDetail, {
        minItems: 2,
        maxItems: MAX_ERROR_DETAILS,
        description: `Only when several parameters or fields of one part (path, body or query) are invalid: each, one per parameter, the first being the one described above; at most ${MAX_ERROR_DETAILS}.`,
      }),
    ),
  },
  { $id: 'ApiError', additionalProperties: false, description: 'The body of every error response.' },
);

export type ApiErrorBody = Static<typeof ApiErrorSchema>;
export type Alternative = ApiErrorBody['alternatives'][number];
