import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PaymentProvider } from '../services/payment-provider.js';
import { runProviderTasks } from '../services/stripe-payments.js';
import { PeriodicSweep } from './periodic.js';

/**
 * Makes the calls to Stripe that writes decided on (captures on completion, a deposit's capture or
 * cancellation at its release, refunds on cancellations), in every instance: each task is leased
 * by one, and its idempotency key makes a repeated call harmless anyway.
 */
export function providerTaskSweep(
  db: Kysely<Database>,
  provider: PaymentProvider,
  options: { now: () => Date; everyMs: number; log: FastifyBaseLogger },
): PeriodicSweep {
  const { now, everyMs, log } = options;
  return new PeriodicSweep({
    everyMs,
    log,
    run: () => runProviderTasks({ db, now: now(), claim: null }, provider),
    done: 'provider tasks made at Stripe',
    failed: 'making provider tasks failed; retried next round',
  });
}
