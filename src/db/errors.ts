/** Whether a database error is a unique-constraint violation (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Network errors of a connection to the database server. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);
/** PostgreSQL: shutting down, starting up, too many connections; class 08 is every connection exception. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Whether an error means the database cannot serve right now (a retry later may work), rather
 * than a fault of the request or the code: the caller gets a 503, not a 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_ERRORS.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08')) return true;
    // SQLite: another process held the write lock beyond the busy timeout.
    if (code === 'SQLITE_BUSY') return true;
  }
  // node-postgres pool and client errors carry no code.
  return (
    typeof message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|Query read timeout/.test(message)
  );
}
