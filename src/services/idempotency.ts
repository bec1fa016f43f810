/**
 * Idempotency keys as the idempotency plugin (src/http/plugins/idempotency.ts) uses them: claim a
 * key for a request, mark it done with the answer, or free it when nothing was written. The rules
 * (what is kept, for how long, what a replay answers) are the plugin's and docs/api.md's; the
 * queries are the repository's, and a write marks its key committed in its own transaction
 * (inWriteTransaction), which is how the plugin tells a refusal from a write that ran.
 */
export {
  type Claim,
  ClaimLostError,
  claimIdempotencyKey,
  completeIdempotencyKey,
  pastLease,
  releaseIdempotencyKey,
  type StoredResponse,
} from '../repositories/idempotency.js';
