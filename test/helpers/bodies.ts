/** Valid request bodies for the write operations, for tests that need one of each to start from. */

/** POST /v1/jobs: a job in Durlach. */
export const JOB_BODY = {
  title: 'Hecke schneiden',
  description: 'Zwanzig Meter Thuja, Werkzeug ist da.',
  category: 'GARDENING',
  price_eur: 60,
  location: { plz: '76227' },
};

/** POST /v1/listings: a beer-tent set lent by the day. */
export const LISTING_BODY = {
  title: 'Bierzeltgarnitur',
  description: 'Ein Tisch und zwei Bänke für acht Personen.',
  category: 'EVENTS',
  price_per_day_eur: 8,
  price_per_week_eur: 35,
  deposit_eur: 20,
  condition: 'good',
  location: { plz: '76227' },
};

/** POST /v1/helpers: a helper profile named `name`, with coordinates (never shown). */
export function helperBody(name: string) {
  return {
    display_name: name,
    categories: ['GARDENING'],
    location: { lat: 49.0123, lng: 8.4321 },
    hourly_rate_eur: 18,
  };
}

/** PUT /v1/me/provider: a registered company in Karlsruhe (commercial accounts give it before they post). */
export const PROVIDER_BODY = {
  legal_name: 'Gartenbau Grün GmbH',
  address: { street: 'Kaiserstraße 12', plz: '76133', city: 'Karlsruhe', country: 'DE' },
  email: 'kontakt@gartenbau-gruen.example',
  phone: '+49 721 1234567',
  register: { court: 'Amtsgericht Mannheim', number: 'HRB 712345' },
  vat_id: 'DE123456789',
  self_certification: true,
};

/** A developer key request as the public form files it (POST /v1/developer/key-requests). */
export const KEY_REQUEST_BODY = {
  name: 'Paula Entwicklerin',
  email: 'paula@example.org',
  account_type: 'private',
  intended_use: 'Eine App für die Nachbarschaftshilfe in Durlach.',
};
