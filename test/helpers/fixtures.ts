import type { Kysely } from 'kysely';
import type { Queryable } from '../../src/db/queryable.js';
import type { Database, KeyRequestRow, NewHelper, NewJob, NewListing, NewOwner } from '../../src/db/schema.js';
import type { Category } from '../../src/domain/categories.js';
import { insertHelpers } from '../../src/repositories/helper-availability.js';
import { insertJobs } from '../../src/repositories/jobs.js';
import { createKeyRequest, type KeyRequestInput } from '../../src/repositories/key-requests.js';
import { insertListings, insertOwners } from '../../src/repositories/listings.js';
import { inWriteTransaction } from '../../src/repositories/write-transaction.js';

/** Places the fixtures use, as in assets/karlsruhe-places.csv (whose distance_km column the tests expect). */
export const AT = {
  innenstadtOst: { city: 'Karlsruhe', district: 'Innenstadt-Ost', plz: '76131', lat: 49.0142, lng: 8.4108 },
  durlach: { city: 'Karlsruhe', district: 'Durlach', plz: '76227', lat: 48.9921, lng: 8.4684 },
  ettlingen: { city: 'Ettlingen', district: null, plz: '76275', lat: 48.942, lng: 8.4059 },
  pforzheim: { city: 'Pforzheim', district: null, plz: '75175', lat: 48.8913, lng: 8.6992 },
} as const;

/**
 * Fixture rows are inserted as they are: the coordinates given are the shown point (the one every
 * public answer uses), and the stored exact place is the same unless a test sets exact_lat/lng.
 */
function withExact<T extends { lat: number; lng: number; exact_lat?: number; exact_lng?: number }>(
  row: T,
): T & { exact_lat: number; exact_lng: number } {
  return { ...row, exact_lat: row.exact_lat ?? row.lat, exact_lng: row.exact_lng ?? row.lng };
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${(++counter).toString(16).padStart(16, '0')}`;

export function jobFixture(overrides: Partial<NewJob> = {}): NewJob {
  return withExact({
    id: nextId('job'),
    title: 'Hecke schneiden in Durlach',
    description: 'Thujahecke, 20 m lang. Werkzeug ist vorhanden.',
    category: 'GARDENING',
    status: 'open',
    price_cents: 6000,
    duration_hours: 3,
    ...AT.durlach,
    desired_at: '2026-11-25T09:00:00.000Z',
    desired_date: '2026-11-25',
    deadline: '2026-11-27T17:00:00.000Z',
    time_preference: 'vormittags',
    urgent: 0,
    created_at: '2026-11-18T10:00:00.000Z',
    helpers_needed: 1,
    applications_count: 1,
    smart_eta_minutes: 35,
    photos: '["https://cdn.karlsruhe-marketplace.example/photos/hecke/1.jpg"]',
    requires_license: 0,
    express: 0,
    remote_task: 0,
    pricing_confidence: 'medium',
    completed_at: null,
    ...overrides,
  });
}

export function ownerFixture(overrides: Partial<NewOwner> = {}): NewOwner {
  return {
    id: nextId('own'),
    display_name: 'Petra K.',
    reliability_score: 88,
    completed_jobs: 40,
    avg_response_minutes: 25,
    cancellation_rate: 0.02,
    rating_avg: 4.8,
    rating_count: 31,
    verified: 1,
    created_at: '2025-01-10T08:00:00.000Z',
    ...overrides,
  };
}

export function listingFixture(ownerId: string, overrides: Partial<NewListing> = {}): NewListing {
  return withExact({
    id: nextId('lst'),
    owner_id: ownerId,
    title: 'Bohrmaschine Bosch PSB 750 zu verleihen',
    description: 'Schlagbohrmaschine mit Koffer und Bohrersatz.',
    category: 'TECH_REPAIR',
    status: 'available',
    price_per_day_cents: 800,
    price_per_week_cents: 3500,
    deposit_cents: 5000,
    condition: 'good',
    ...AT.innenstadtOst,
    instant_booking: 1,
    photos: '[]',
    created_at: '2026-11-01T10:00:00.000Z',
    ...overrides,
  });
}

export function helperFixture(
  categories: Category[],
  overrides: Partial<NewHelper> = {},
): NewHelper & { categories: Category[] } {
  return withExact({
    id: nextId('hlp'),
    display_name: 'Jonas W.',
    bio: 'Ich helfe gern.',
    hourly_rate_cents: 1600,
    available: 1,
    ...AT.innenstadtOst,
    reliability_score: 80,
    completed_jobs: 20,
    avg_response_minutes: 30,
    cancellation_rate: 0.05,
    rating_avg: 4.6,
    rating_count: 15,
    verified: 1,
    created_at: '2025-05-01T08:00:00.000Z',
    ...overrides,
    categories,
  });
}

export async function insert(
  db: Queryable,
  rows: {
    jobs?: NewJob[];
    owners?: NewOwner[];
    listings?: NewListing[];
    helpers?: (NewHelper & { categories: Category[] })[];
  },
): Promise<void> {
  if (rows.jobs) await insertJobs(db, rows.jobs);
  if (rows.owners) await insertOwners(db, rows.owners);
  if (rows.listings) await insertListings(db, rows.listings);
  if (rows.helpers) await insertHelpers(db, rows.helpers);
}

/** A pending key request, written as the API writes it (in a write transaction). */
export function insertKeyRequest(db: Kysely<Database>, input: KeyRequestInput, now: Date): Promise<KeyRequestRow> {
  return inWriteTransaction({ db, now, claim: null }, (trx) => createKeyRequest(trx, input, now));
}
