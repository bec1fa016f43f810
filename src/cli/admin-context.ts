import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { Mailer } from '../mail/mailer.js';
import type { PaymentProvider } from '../services/payment-provider.js';

/** The options the admin commands take (node:util parseArgs). */
export const ADMIN_OPTIONS = {
  reason: { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  organisation: { type: 'string' },
  commercial: { type: 'boolean' },
  action: { type: 'string' },
  ground: { type: 'string' },
  explanation: { type: 'string' },
  uphold: { type: 'boolean' },
  reverse: { type: 'boolean' },
  'per-minute': { type: 'string' },
  year: { type: 'string' },
  'amount-eur': { type: 'string' },
  role: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
export type OptionName = Exclude<keyof typeof ADMIN_OPTIONS, 'help'>;
type BooleanOption = 'commercial' | 'uphold' | 'reverse';
export type AdminOptions = Partial<Record<Exclude<OptionName, BooleanOption>, string>> &
  Partial<Record<BooleanOption, boolean>>;

/** What every admin command (admin.ts; admin-keys.ts, admin-requests.ts) runs with. */
export interface AdminContext {
  db: Kysely<Database>;
  config: Config;
  mailer: Mailer;
  /** Stripe, with PAYMENTS_PROVIDER=stripe (ledger reconcile); absent or null with the manual provider. */
  payments?: PaymentProvider | null;
  /** One "now" per command, so everything it writes carries the same time. */
  now: Date;
  /** A result line, on stdout. */
  out(line: string): void;
  /** Raw output on stdout (an export), false when the pipe is full; `drained` waits until it is not. */
  write?(chunk: string): boolean;
  drained?(): Promise<void>;
  /** Progress and warnings, on stderr. */
  note(line: string): void;
}
