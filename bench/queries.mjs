// The request mixes of the benchmark: seeded, so every run sends the same distinct queries.

/** A small deterministic generator (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORIES = [
  'gardening',
  'cleaning',
  'moving',
  'tech_repair',
  'childcare',
  'petcare',
  'shopping',
  'events',
  'borrowing',
  'other',
];
const SORTS = ['newest', 'price_asc', 'price_desc', 'distance'];

function pick(next, list) {
  return list[Math.floor(next() * list.length)];
}

/** A point within about 25 km of Karlsruhe's centre, where the data is. */
function centre(next) {
  return { lat: (48.85 + next() * 0.3).toFixed(4), lng: (8.2 + next() * 0.45).toFixed(4) };
}

function day(next, anchor) {
  const date = new Date(anchor.getTime() + Math.floor(next() * 21) * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/**
 * `count` distinct searches of `path`: a centre near Karlsruhe, a radius, often a category, the
 * filters `more` adds, and a sort.
 */
function distinctSearches(count, seed, path, more) {
  const next = rng(seed);
  const paths = new Set();
  while (paths.size < count) {
    const q = new URLSearchParams();
    const { lat, lng } = centre(next);
    q.set('lat', lat);
    q.set('lng', lng);
    q.set('radius', String(1 + Math.floor(next() * 50)));
    if (next() < 0.6) q.set('category', pick(next, CATEGORIES));
    more(q, next);
    q.set('sort', pick(next, SORTS));
    paths.add(`${path}?${q}`);
  }
  return [...paths];
}

/** `count` distinct job searches: category, radius, centre, budget, urgent, date and sort mixed. */
export function jobSearches(count, seed = 1, anchor = new Date()) {
  return distinctSearches(count, seed, '/v1/jobs', (q, next) => {
    if (next() < 0.3) q.set('budget_min', String(Math.floor(next() * 60)));
    if (next() < 0.3) q.set('budget_max', String(60 + Math.floor(next() * 200)));
    if (next() < 0.2) q.set('urgent', next() < 0.5 ? 'true' : 'false');
    if (next() < 0.15) q.set('date', day(next, anchor));
  });
}

/** `count` distinct listing searches: category, radius, centre, price, condition, instant booking and sort. */
export function listingSearches(count, seed = 2) {
  return distinctSearches(count, seed, '/v1/listings', (q, next) => {
    if (next() < 0.3) q.set('price_max', String(5 + Math.floor(next() * 40)));
    if (next() < 0.3) q.set('condition', pick(next, ['new', 'like_new', 'good', 'fair']));
    if (next() < 0.2) q.set('instant_booking', next() < 0.5 ? 'true' : 'false');
  });
}
