import { IDEMPOTENCY_RETENTION_HOURS } from '../domain/idempotency.js';

/**
 * The Idempotency-Key contract, written once: its format, how long a key is kept and what the
 * server does with it (src/http/plugins/idempotency.ts applies it). The document declares it on
 * every POST under /v1 as one components.parameters entry (http/openapi/components.ts); the MCP
 * write tools take it as their idempotency_key argument.
 */

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** 1 to 255 visible ASCII characters (0x21 to 0x7E: no spaces, no control characters), as a JSON Schema pattern. */
export const IDEMPOTENCY_KEY_PATTERN_SOURCE = `^[\\x21-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`;

/** The same rule as a RegExp, for the code that checks the header. */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY_PATTERN_SOURCE);

/** "48 hours", from the repository's retention. */
export const IDEMPOTENCY_RETENTION = `${IDEMPOTENCY_RETENTION_HOURS} hours`;

/** The format, in words. */
export const IDEMPOTENCY_KEY_FORMAT = `1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`;

export const IDEMPOTENCY_KEY_DESCRIPTION = `Optional: ${IDEMPOTENCY_KEY_FORMAT} (no spaces), fresh per operation (a UUID, say). With a developer key, a retry with the same key and the same request (method, URL and JSON body; key order and spacing do not count) within ${IDEMPOTENCY_RETENTION} answers the first response again (status, body, Content-Type and Location), with Idempotent-Replayed: true, without doing the work twice; keys are scoped to the account. The same key with another request is a 422 (idempotency_key_reused); a retry while the first still runs is a 409 (idempotency_in_progress, Retry-After: 1); a retry after the server stopped between doing the work and answering is a 409 (idempotency_response_lost: look the result up instead). Answers that say "try later" (5xx, 429, or with Retry-After) are not kept, so a retry with the same key does the work. Without a developer key (anonymous POSTs, such as key requests) the header's format is still checked (a 400 if it is not ${IDEMPOTENCY_KEY_FORMAT}), but nothing is stored or replayed.`;

/** The header's schema: what the document declares. */
export const IdempotencyKeySchema = {
  type: 'string',
  minLength: 1,
  maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
  pattern: IDEMPOTENCY_KEY_PATTERN_SOURCE,
} as const;

/** The header as one OpenAPI parameter, shared as components.parameters['Idempotency-Key']. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  component: 'Idempotency-Key',
  parameter: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description: IDEMPOTENCY_KEY_DESCRIPTION,
    schema: IdempotencyKeySchema,
  },
} as const;
