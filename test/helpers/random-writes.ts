/**
 * Random writes between reads, for the tests that check that what follows writes (the search
 * index, the aggregates read from it) answers exactly as SQL does.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { NOW } from './app.js';
import { AT, insert, jobFixture, listingFixture, ownerFixture } from './fixtures.js';
import type { seeded } from './random.js';

/**
 * A round of writes as the platform sees them: new jobs and listings (some tying with existing
 * ones on every order key, some with ids right after an existing id, so appended points sit in the
 * same gap of the id order), status changes both ways (to completed and back too), moves, new prices
 * and titles, deletions.
 */
export async function randomWrites(db: Kysely<Database>, g: ReturnType<typeof seeded>, round: number): Promise<void> {
  const jobs = await db.selectFrom('jobs').select(['id', 'status']).orderBy('id').execute();
  const listings = await db.selectFrom('listings').select(['id', 'owner_id', 'status']).orderBy('id').execute();
  const near = () => ({
    lat: Number((48.9 + g.next() * 0.2).toFixed(4)),
    lng: Number((8.3 + g.next() * 0.3).toFixed(4)),
  });
  const newJobs = Array.from({ length: 25 }, (_, i) => {
    const tie = g.maybe(0.4);
    const gap = g.maybe(0.3) ? `${g.pick(jobs).id}${round}${i}` : undefined;
    return jobFixture({
      ...(gap && { id: gap }),
      ...(tie ? AT.durlach : { ...near(), city: 'Karlsruhe', district: g.pick(['Durlach', 'Oststadt', null]) }),
      price_cents: tie ? 6000 : 1000 + Math.floor(g.next() * 20_000),
      created_at: tie ? '2026-11-18T10:00:00.000Z' : new Date(NOW.getTime() - Math.floor(g.next() * 9e8)).toISOString(),
      title: g.pick(['Rasen mähen', 'Umzug Hilfe', 'Bohrmaschine gesucht', `Neu ${round}`]),
      category: g.pick(['GARDENING', 'MOVING', 'CLEANING', 'PETCARE']),
      urgent: g.maybe(0.3) ? 1 : 0,
      deadline: g.maybe(0.2) ? null : new Date(NOW.getTime() + (g.next() - 0.2) * 4e8).toISOString(),
    });
  });
  const owner = ownerFixture();
  const newListings = Array.from({ length: 15 }, () =>
    listingFixture(owner.id, {
      ...near(),
      price_per_day_cents: g.maybe(0.4) ? 800 : 100 + Math.floor(g.next() * 5_000),
      title: g.pick(['Bohrmaschine', 'Zelt für 4', 'Fahrräder', `Leihgabe ${round}`]),
    }),
  );
  await insert(db, { jobs: newJobs, owners: [owner], listings: newListings });
  for (let i = 0; i < 30; i++) {
    const job = g.pick(jobs);
    const change = g.next();
    const update = db.updateTable('jobs').where('id', '=', job.id);
    if (change < 0.3)
      await update.set({ status: g.pick(['open', 'assigned', 'cancelled', 'removed', 'completed']) }).execute();
    else if (change < 0.5) await update.set(near()).execute();
    // A new price changes a completed job's rate too (the figures must drop its old one).
    else if (change < 0.7) await update.set({ price_cents: 500 + Math.floor(g.next() * 30_000) }).execute();
    else if (change < 0.85)
      await update.set({ title: g.pick(['Hecke schneiden', 'Fenster putzen', 'Zelt']) }).execute();
    else if (change < 0.92) {
      // A deadline within the minute the aggregate tests look at (it passes between their two moments).
      const span = g.maybe(0.5) ? 60_000 : 4e8;
      await update.set({ deadline: new Date(NOW.getTime() + (g.next() - 0.1) * span).toISOString() }).execute();
    }
    // Fields the figures read: category, urgency, hours and helpers (the rate per helper-hour).
    else
      await update
        .set({
          category: g.pick(['GARDENING', 'MOVING', 'CLEANING', 'PETCARE']),
          urgent: g.maybe(0.5) ? 1 : 0,
          duration_hours: g.pick([0.5, 1, 2.5, 4]),
          helpers_needed: g.pick([1, 2, 3]),
        })
        .execute();
  }
  // Completed jobs reopened and repriced, open ones completed: the completed figures follow both ways.
  const completed = jobs.filter((j) => j.status === 'completed');
  for (let i = 0; i < 3 && completed.length > 0; i++) {
    const job = g.pick(completed);
    const set = g.maybe(0.5) ? { status: 'open' as const } : { price_cents: 700 + Math.floor(g.next() * 9_000) };
    await db.updateTable('jobs').where('id', '=', job.id).set(set).execute();
  }
  for (let i = 0; i < 15; i++) {
    const listing = g.pick(listings);
    const update = db.updateTable('listings').where('id', '=', listing.id);
    if (g.maybe(0.5)) await update.set({ status: g.pick(['available', 'paused', 'archived']) }).execute();
    else if (g.maybe(0.6))
      await update.set({ price_per_day_cents: 100 + Math.floor(g.next() * 6_000), ...near() }).execute();
    else
      await update
        .set({
          category: g.pick(['BORROWING', 'TECH_REPAIR', 'EVENTS']),
          price_per_week_cents: g.maybe(0.3) ? null : 1_000 + Math.floor(g.next() * 20_000),
          deposit_cents: Math.floor(g.next() * 10_000),
          instant_booking: g.maybe(0.5) ? 1 : 0,
        })
        .execute();
  }
  // Deleted: some of the jobs just added (nothing refers to them).
  await db
    .deleteFrom('jobs')
    .where(
      'id',
      'in',
      newJobs.slice(0, 3).map((j) => j.id),
    )
    .execute();
}
