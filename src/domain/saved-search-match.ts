import type { Category } from './categories.js';
import { haversineKm, type LatLng } from './geo.js';
import { eurToCents } from './pricing.js';
import { type Field, queryWords, scoreDocument } from './search-text.js';

/**
 * Whether a job or listing matches a saved search: the conditions its search route filters by,
 * evaluated on one subject. The cheap ones (resource, category, bounding box) are already applied
 * in SQL when this runs; this decides the rest, on the same point the public search measures from
 * (the shown, approximate one) and with the same text rules (domain/search-text.ts).
 */

/** The search parameters a saved search keeps: what the search route validated, without paging. */
export type SavedQuery = Readonly<Record<string, string | number | boolean>>;

/** A job or listing as its search filters see it. */
export interface MatchSubject {
  category: Category;
  /** The shown point (lat/lng columns), as search filters and sorts use. */
  point: LatLng;
  /** What its words are found by (domain/search-text.ts documentFields), computed once per write. */
  terms: Readonly<Record<Field, Set<string>>>;
  /** jobs: price_cents; listings: price_per_day_cents. */
  priceCents: number;
  /** jobs only: the Europe/Berlin date of desired_at, and urgent. */
  desiredDate?: string | null;
  urgent?: boolean;
  /** listings only. */
  condition?: string;
  instantBooking?: boolean;
}

export interface SavedArea {
  center: LatLng;
  radiusKm: number;
}

/** Whether the text of `q` finds the subject: every query word matches title, description, category or place. */
export function textMatches(q: string, subject: MatchSubject): boolean {
  const wanted = queryWords(q);
  return wanted.length === 0 || scoreDocument(wanted, subject.terms) > 0;
}

/** The jobs search's filters on one job. */
function jobFiltersPass(query: SavedQuery, subject: MatchSubject): boolean {
  const { budget_min, budget_max, date, urgent } = query;
  if (typeof budget_min === 'number' && subject.priceCents < eurToCents(budget_min, 'up')) return false;
  if (typeof budget_max === 'number' && subject.priceCents > eurToCents(budget_max, 'down')) return false;
  if (typeof date === 'string' && subject.desiredDate !== date) return false;
  if (typeof urgent === 'boolean' && subject.urgent !== urgent) return false;
  return true;
}

/** The listings search's filters on one listing. */
function listingFiltersPass(query: SavedQuery, subject: MatchSubject): boolean {
  const { price_max, condition, instant_booking } = query;
  if (typeof price_max === 'number' && subject.priceCents > eurToCents(price_max, 'down')) return false;
  if (typeof condition === 'string' && subject.condition !== condition) return false;
  if (typeof instant_booking === 'boolean' && subject.instantBooking !== instant_booking) return false;
  return true;
}

/** Whether the subject matches the saved search (its resource already chosen). */
export function savedSearchMatches(
  resource: 'jobs' | 'listings',
  query: SavedQuery,
  area: SavedArea,
  subject: MatchSubject,
): boolean {
  if (typeof query.category === 'string' && query.category !== subject.category) return false;
  if (haversineKm(area.center, subject.point) > area.radiusKm) return false;
  if (!(resource === 'jobs' ? jobFiltersPass(query, subject) : listingFiltersPass(query, subject))) return false;
  return typeof query.q !== 'string' || textMatches(query.q, subject);
}
