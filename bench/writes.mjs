// The write scenarios of the bench: create job, apply, create booking and post message, each
// through the API with a unique Idempotency-Key (bench/wrk-paths.lua), every one a real write with
// its events, against a baseline that inserts one job row in one transaction on the same database
// (bench/servers/insert.mjs). Requests of a scenario are distinct where the service demands it
// (an application per account and job, a booking per listing and day), so each is a 2xx.
/** The bodies every write of the bench posts (the writer of the under-writes scenario too). */
export const JOB_BODY = {
  title: 'Hecke schneiden',
  description: 'Zwanzig Meter Thuja, Werkzeug ist da.',
  category: 'GARDENING',
  price_eur: 60,
  location: { plz: '76227' },
};
export const LISTING_BODY = {
  title: 'Bierzeltgarnitur',
  description: 'Ein Tisch und zwei Bänke für acht Personen.',
  category: 'EVENTS',
  price_per_day_eur: 8,
  deposit_eur: 20,
  condition: 'good',
  location: { plz: '76227' },
};
/** Accounts that apply, book and write; one more owns the jobs and listings. */
const ACCOUNTS = 12;
const APPLY_JOBS = 1_000;
const LISTINGS = 40;
const BOOKING_DAYS = 300;

/** A POST through the API with a fresh Idempotency-Key; throws unless it is a 2xx. */
export async function post(port, path, key, body) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

function line(method, path, key, body) {
  return `${method}\t${path}\t${key}\t${JSON.stringify(body)}`;
}

function isoDay(daysAhead) {
  return new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Creates what the scenarios write to; returns [title, lines] per scenario. `keysOf(n)` gives the
 * developer keys of n private accounts.
 */
export async function writeScenarios(port, keysOf) {
  const [owner, ...writers] = await keysOf(ACCOUNTS + 1);
  const jobs = [];
  for (let i = 0; i < APPLY_JOBS; i++)
    jobs.push((await post(port, '/v1/jobs', owner, { ...JOB_BODY, helpers_needed: 4 })).id);
  const listings = [];
  for (let i = 0; i < LISTINGS; i++) listings.push((await post(port, '/v1/listings', owner, LISTING_BODY)).id);
  const conversations = [];
  for (const [i, key] of writers.entries()) {
    const opened = await post(port, '/v1/conversations', key, {
      about: { type: 'job', id: jobs[i] },
      text: 'Hallo, ist die Hecke noch zu schneiden?',
    });
    conversations.push({ id: opened.id, keys: [key, owner] });
  }
  // Applications: each job takes helpers_needed × 3 = 12, one per account, each as its own helper profile.
  const helpers = [];
  for (const [i, key] of writers.entries()) {
    const helper = await post(port, '/v1/helpers', key, {
      display_name: `Helferin ${i}`,
      categories: ['GARDENING'],
      location: { lat: 49.0123, lng: 8.4321 },
      hourly_rate_eur: 18,
    });
    helpers.push({ key, id: helper.id });
  }
  const apply = jobs.flatMap((id) =>
    helpers.map((h) =>
      line('POST', `/v1/jobs/${id}/applications`, h.key, { helper_id: h.id, message: 'Ich kann am Samstag.' }),
    ),
  );
  // Bookings: one day each, every listing on every day from tomorrow on.
  const book = [];
  for (let day = 1; day <= BOOKING_DAYS; day++) {
    for (const [i, id] of listings.entries()) {
      const date = isoDay(day);
      book.push(
        line('POST', `/v1/listings/${id}/bookings`, writers[(day + i) % writers.length], {
          start_date: date,
          end_date: date,
        }),
      );
    }
  }
  const messages = conversations.flatMap(({ id, keys }) =>
    keys.map((key) => line('POST', `/v1/conversations/${id}/messages`, key, { text: 'Passt, bis dann!' })),
  );
  return [
    ['create job (POST /v1/jobs)', writers.map((key) => line('POST', '/v1/jobs', key, JOB_BODY))],
    ['apply (POST /v1/jobs/{id}/applications)', apply],
    ['create booking (POST /v1/listings/{id}/bookings)', book],
    ['post message (POST /v1/conversations/{id}/messages)', messages],
  ];
}

/** The baseline's requests: any body; each inserts a job row. */
export const BASELINE_LINES = [line('POST', '/', '', {})];
