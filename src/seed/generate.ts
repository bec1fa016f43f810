import type { NewHelper, NewJob } from '../db/schema.js';
import { berlinDate, berlinWallClock, isWeekend, nextDate } from '../domain/berlin-time.js';
import { CATEGORIES, CATEGORY_INFO, type Category } from '../domain/categories.js';
import { type EtaHelper, smartEtaMinutes } from '../domain/eta.js';
import { MAX_RADIUS_KM } from '../domain/geo.js';
import { placeName } from '../domain/places.js';
import { FALLBACK_HOURLY_EUR, pricingConfidence, type RateSample } from '../domain/pricing.js';
import type { JobStatus, TimePreference } from '../domain/statuses.js';
import { freshRecordColumns } from '../repositories/mappers.js';
import { JOB_CATALOG } from './catalog/jobs.js';
import type { JobTemplate } from './catalog/types.js';
import { drawTraits, type Traits } from './history.js';
import { displayName } from './people.js';
import { DAY_MS, describe, fill, idOf, type Marking, named, photos, placedAt, titled } from './placing.js';
import type { Rng } from './rng.js';

export type HelperSeed = NewHelper & { categories: Category[]; traits: Traits };

export function makeHelper(rng: Rng, anchor: Date, marking: Marking): HelperSeed {
  const { location } = placedAt(rng, marking);
  const categories = rng.sample(
    CATEGORIES.filter((c) => c !== 'BORROWING'),
    rng.weighted([
      [1, 3],
      [2, 4],
      [3, 2],
    ] as const),
  );
  const main = categories[0] ?? 'OTHER';
  const [low, , high] = FALLBACK_HOURLY_EUR[main];
  const names = categories.map((c) => CATEGORY_INFO[c].name.de).join(', ');
  return {
    id: idOf(rng, marking, 'hlp'),
    display_name: named(marking, displayName(rng)),
    bio: `Ich helfe in ${placeName(location)} und Umgebung: ${names}. Zuverlässig und pünktlich.`,
    hourly_rate_cents: Math.round(rng.between(low, high) * 2) * 50,
    available: rng.chance(0.7) ? 1 : 0,
    created_at: new Date(anchor.getTime() - rng.between(10, 1200) * DAY_MS).toISOString(),
    ...location,
    ...freshRecordColumns(),
    categories,
    traits: drawTraits(rng),
  };
}

const TIME_PREFERENCE_WEIGHTS: readonly (readonly [TimePreference | null, number])[] = [
  ['vormittags', 20],
  ['nachmittags', 25],
  ['abends', 15],
  ['wochenende', 18],
  ['flexibel', 17],
  [null, 5],
];

/** A desired moment that fits the time preference, `days` after the anchor day (Berlin time). */
function desiredMoment(rng: Rng, anchor: Date, days: number, preference: TimePreference | null): Date {
  let date = berlinDate(new Date(anchor.getTime() + days * DAY_MS + 12 * 3_600_000));
  if (preference === 'wochenende') {
    while (!isWeekend(date)) date = nextDate(date);
  }
  const [from, to] =
    preference === 'vormittags'
      ? [8, 11]
      : preference === 'nachmittags'
        ? [13, 16]
        : preference === 'abends'
          ? [18, 20]
          : [9, 16];
  return berlinWallClock(date, rng.int(from, to), rng.pick([0, 0, 15, 30, 30, 45]));
}

/**
 * A deadline after the desired moment and at most 30 days after creation (the commercial bound,
 * which the seed keeps for everyone); for jobs still open, also after the anchor, so that they are open.
 */
function deadlineFor(rng: Rng, anchor: Date, created: Date, desired: Date | null, history: boolean): string | null {
  const latest = created.getTime() + 30 * DAY_MS;
  const earliest = Math.max(desired?.getTime() ?? created.getTime() + DAY_MS, history ? 0 : anchor.getTime() + DAY_MS);
  if (earliest > latest) return null;
  return new Date(rng.between(earliest, Math.min(latest, earliest + 4 * DAY_MS))).toISOString();
}

/** What the seed needs to derive smart_eta_minutes and pricing_confidence, as writes will. */
export interface JobContext {
  anchor: Date;
  etaHelpers: ReadonlyMap<Category, readonly EtaHelper[]>;
  /** EUR per helper-hour of completed jobs, by category. */
  rates: ReadonlyMap<Category, RateSample>;
  marking: Marking;
}

export function makeJob(rng: Rng, ctx: JobContext, status: JobStatus): NewJob {
  const category = rng.pick(CATEGORIES);
  const template: JobTemplate = rng.pick(JOB_CATALOG[category]);
  const { place, location } = placedAt(rng, ctx.marking);
  const id = idOf(rng, ctx.marking, 'job');
  const hours = Math.max(0.5, Math.round(rng.between(...template.hours) * 2) / 2);
  const helpers = rng.int(...template.helpers);
  const rate = rng.between(...template.hourlyRateEur);
  const raw = rate * hours * helpers;
  const priceEur = raw >= 60 ? Math.round(raw / 5) * 5 : Math.round(raw);
  const remote = rng.chance(template.remote ?? 0);
  const urgent = rng.chance(0.12);
  const preference = rng.weighted(TIME_PREFERENCE_WEIGHTS);
  const history = status === 'completed' || status === 'cancelled' || status === 'expired';
  const createdDaysAgo = history ? rng.between(20, 365) : rng.between(0, 21);
  const created = new Date(ctx.anchor.getTime() - createdDaysAgo * DAY_MS);
  // An open job is wanted from tomorrow on: one wanted earlier today would show a time already
  // passed on a first start in the afternoon (the anchor is midnight). History may have any day.
  const startOffset = urgent ? rng.between(history ? 0 : 0.5, 2) : rng.between(1, 21);
  const desired = rng.chance(0.88)
    ? desiredMoment(rng, ctx.anchor, (history ? -createdDaysAgo : 0) + startOffset, preference)
    : null;
  const deadline = rng.chance(0.55) ? deadlineFor(rng, ctx.anchor, created, desired, history) : null;
  const max = helpers * 3;
  const applications =
    status === 'open'
      ? Math.floor(rng.next() ** 2 * max * Math.min(1, createdDaysAgo / 7 + 0.2))
      : rng.int(helpers, max);
  const sample = ctx.rates.get(category);
  return {
    id,
    title: titled(ctx.marking, fill(template.title, place)),
    description: describe(rng, template.sentences, place),
    category,
    status,
    price_cents: priceEur * 100,
    duration_hours: hours,
    ...location,
    desired_at: desired?.toISOString() ?? null,
    desired_date: desired ? berlinDate(desired) : null,
    deadline: status === 'expired' ? new Date(created.getTime() + 10 * DAY_MS).toISOString() : deadline,
    time_preference: preference,
    urgent: urgent ? 1 : 0,
    created_at: created.toISOString(),
    helpers_needed: helpers,
    applications_count: Math.min(max, applications),
    smart_eta_minutes: smartEtaMinutes(
      { lat: location.exact_lat, lng: location.exact_lng, remote_task: remote },
      ctx.etaHelpers.get(category) ?? [],
      MAX_RADIUS_KM,
    ),
    photos: photos(rng, id, 0.4),
    requires_license: rng.chance(template.requiresLicense ?? 0) ? 1 : 0,
    express: rng.chance(urgent ? 0.3 : 0.06) ? 1 : 0,
    remote_task: remote ? 1 : 0,
    pricing_confidence: pricingConfidence(priceEur / (hours * helpers), sample ?? null),
    completed_at:
      status === 'completed' ? new Date(created.getTime() + rng.between(1, 20) * DAY_MS).toISOString() : null,
  };
}
