/** Idempotency keys are kept at least this long (the issue asked for 24 hours). */
export const IDEMPOTENCY_RETENTION_HOURS = 48;
