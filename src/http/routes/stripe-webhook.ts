import { receiveProviderEvent } from '../../services/stripe-payments.js';
import type { Api, RouteDeps } from '../route-deps.js';

/** Stripe's events are at most this big (Stripe's own limit is far below). */
const EVENT_BODY_LIMIT = 512 * 1024;

/**
 * POST /webhooks/stripe (issue 32, PAYMENTS_PROVIDER=stripe): where Stripe sends its events. Its
 * own plugin: only here is a JSON body kept as the exact text, which the signature is made over
 * (the SDK verifies it with STRIPE_WEBHOOK_SECRET). Not in the API's document: Stripe calls it,
 * not integrators (docs/operations.md says how to register it). 400 for a bad signature; 200 once
 * the event is recorded (a second delivery of it answers 200 and changes nothing); an error makes
 * Stripe deliver it again later.
 */
export async function stripeWebhookRoutes(app: Api, options: { deps: RouteDeps }) {
  const { deps } = options;
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: EVENT_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
  app.post('/webhooks/stripe', { config: { budget: 'exempt' }, schema: { hide: true } }, async (request) =>
    receiveProviderEvent(
      { db: deps.db, now: deps.now(), claim: null },
      deps.payments ?? null,
      String(request.body ?? ''),
      request.headers['stripe-signature'] as string | undefined,
    ),
  );
}
