import type { Queryable } from '../db/queryable.js';
import type { JobRow } from '../db/schema.js';
import { CATEGORIES } from '../domain/categories.js';
import {
  countOpenJobs,
  type IndexedPage,
  type JobIndexRow,
  jobIndexRowsAfter,
} from '../repositories/indexed-search.js';
import type { JobSearch } from '../repositories/jobs.js';
import { cents, codeOf, dateCode, isoMs, LOAD_CHUNK, NotMirrorable, nextTurn, PASS_CHUNK } from './columns.js';
import { CompletedJobs, JobFigures } from './index-figures.js';
import { loadPoints, type PointIndex, RUN } from './point-index.js';
import { PointTable } from './point-table.js';
import { RadiusTest } from './radius-test.js';
import { TextIndex } from './text-index.js';

/** A job's values as the index keeps them; null for a job it does not keep (not open). */
function jobValues(row: JobIndexRow) {
  return row.status !== 'open'
    ? null
    : {
        lat: row.lat,
        lng: row.lng,
        category: codeOf(CATEGORIES, row.category),
        price: cents(row.price_cents),
        created: isoMs(row.created_at),
        deadline: row.deadline === null ? Number.POSITIVE_INFINITY : isoMs(row.deadline),
        desired: row.desired_date === null ? 0 : dateCode(row.desired_date),
        urgent: row.urgent,
        hourly: hourlyOf(row),
      };
}

/** Cents per helper-hour, as repositories/quantiles.ts hourlyRateCentsSql computes it (double precision). */
function hourlyOf(row: JobIndexRow): number {
  const rate = row.price_cents / (row.duration_hours * row.helpers_needed);
  // No hours or helpers (written past the API's validation): SQL answers NULL or fails; not mirrored.
  if (!Number.isFinite(rate)) throw new NotMirrorable(`hourly rate of ${row.id}`);
  return rate;
}

/**
 * What the figures keep of a completed job; null for any other. Like an open job's, its category
 * must be one the index knows (else NotMirrorable: the index is not used until the data changes).
 */
function completedValues(row: JobIndexRow) {
  return row.status === 'completed' ? { category: codeOf(CATEGORIES, row.category), hourly: hourlyOf(row) } : null;
}

/**
 * Every job with status 'open' as typed columns over a PointIndex: the filters and orders of
 * repositories/jobs.ts searchJobs, evaluated in memory. Whether a job is still open at `now`
 * (deadline ahead) is decided per search, as the SQL does.
 */
export class JobIndex extends PointTable<JobRow, JobIndexRow> {
  /** The figures of the open and completed jobs, following every change (index-figures.ts). */
  protected readonly figures: JobFigures;

  private constructor(
    points: PointIndex,
    category: Uint8Array,
    price: Int32Array,
    created: Float64Array,
    /** Milliseconds; +Infinity for no deadline. */
    private readonly deadline: Float64Array,
    /** YYYYMMDD; 0 for no desired date. */
    private readonly desired: Int32Array,
    private readonly urgent: Uint8Array,
    /** Cents per helper-hour. */
    private readonly hourly: Float64Array,
    text: TextIndex,
    completed: CompletedJobs,
  ) {
    super(points, category, price, created, text);
    const places = () => text.placeCodesOfRows();
    this.figures = new JobFigures(
      points.capacity,
      {
        category,
        price,
        deadline,
        urgent,
        hourly,
        placeOf: (slot) => places()[points.rank[slot] as number] as number,
      },
      completed,
    );
  }

  /** Reads the open jobs; throws NotMirrorable when a stored value cannot be compared as SQL does. */
  static async load(db: Queryable): Promise<JobIndex> {
    const expected = await countOpenJobs(db);
    const text = new TextIndex(expected);
    // Completed jobs hold no point; the figures keep them (they come by in the same pass, in id order).
    const completed = new CompletedJobs();
    const { points, category, columns } = await loadPoints({
      expected,
      kept: (row: JobIndexRow) => text.add(row),
      idPrefix: 'job_',
      types: {
        price: Int32Array,
        created: Float64Array,
        deadline: Float64Array,
        desired: Int32Array,
        urgent: Uint8Array,
        hourly: Float64Array,
      },
      // Every job in primary-key order, the status tested here (see jobIndexRowsAfter).
      page: (after) => jobIndexRowsAfter(db, after, LOAD_CHUNK),
      values: (row) => {
        const values = completedValues(row);
        if (values) completed.push(row.id, values);
        return jobValues(row);
      },
    });
    text.finish(points.capacity - points.size);
    const index = new JobIndex(
      points,
      category,
      columns.price as Int32Array,
      columns.created as Float64Array,
      columns.deadline as Float64Array,
      columns.desired as Int32Array,
      columns.urgent as Uint8Array,
      columns.hourly as Float64Array,
      text,
      completed,
    );
    for (let slot = 0; slot < points.end; slot++) {
      index.figures.added(slot);
      if (slot % PASS_CHUNK === PASS_CHUNK - 1) await nextTurn();
    }
    index.figures.countLoaded();
    index.figures.settle();
    return index;
  }

  /**
   * Follows changes (PointTable.follow); the completed jobs among them, which hold no point, go to
   * the figures.
   */
  override follow(changed: readonly string[], rows: readonly JobIndexRow[]): boolean {
    const now = new Map(rows.map((row) => [row.id, completedValues(row)]));
    for (const id of changed) this.figures.completedIs(id, now.get(id) ?? null);
    return super.follow(changed, rows);
  }

  protected put(slot: number | null, row: JobIndexRow): boolean {
    const values = jobValues(row);
    if (!values) return false;
    if (slot === null) return true;
    this.price[slot] = values.price;
    this.created[slot] = values.created;
    this.deadline[slot] = values.deadline;
    this.desired[slot] = values.desired;
    this.urgent[slot] = values.urgent;
    this.hourly[slot] = values.hourly;
    return true;
  }

  /**
   * The figures as aggregates read them, as of `now` (deadline ahead for open jobs): the open jobs'
   * price and the open and completed jobs' cents per helper-hour by category, the completed jobs'
   * alone, the open jobs per place (by TextIndex place code) and the urgent ones. Kept, not computed:
   * a read costs the changes since the last one.
   */
  figuresAt(now: Date): JobFigures {
    return this.figures.at(now.getTime(), this.points.dead);
  }

  /** The city and district of a place code. */
  placeName(code: number): { city: string; district: string | null } {
    return this.text.placeName(code);
  }

  search(search: JobSearch, now: Date): IndexedPage {
    const test = new RadiusTest(search.center, search.radiusKm);
    const nowMs = now.getTime();
    const category = search.category === undefined ? -1 : CATEGORIES.indexOf(search.category);
    const [min, max] = [search.budgetMinCents ?? -Infinity, search.budgetMaxCents ?? Infinity];
    const desired = search.date === undefined ? -1 : dateCode(search.date);
    const urgent = search.urgent === undefined ? -1 : search.urgent ? 1 : 0;
    const { matches, relevance } = this.scratch;
    const { rank } = this.points;
    const scorer = this.scorer(search.text);
    const { lat, lng, dead } = this.points;
    const { deadline: deadlines, category: categories, price: prices, desired: dates, urgent: urgents } = this;
    const runs = this.points.runs(test, category);
    let total = 0;
    for (let r = 0; r < runs.length; r += RUN) {
      const end = (runs[r + 1] as number) | 0;
      const inside = runs[r + 2] === 1;
      const [kLng, bandIn, bandOut] = [runs[r + 3] as number, runs[r + 4] as number, runs[r + 5] as number];
      const banded = !Number.isNaN(kLng);
      // Integer loop bounds: the runs array holds doubles (NaN bands), and a double index is slow.
      for (let s = (runs[r] as number) | 0; s < end; s++) {
        if (dead[s] === 1) continue;
        if (!inside) {
          const [la, ln] = [lat[s] as number, lng[s] as number];
          if (banded ? !test.containsInRow(la, ln, kLng, bandIn, bandOut) : !test.contains(la, ln)) continue;
        }
        if (category >= 0 && categories[s] !== category) continue;
        if ((deadlines[s] as number) <= nowMs) continue;
        const price = prices[s] as number;
        if (price < min || price > max) continue;
        if (desired >= 0 && dates[s] !== desired) continue;
        if (urgent >= 0 && urgents[s] !== urgent) continue;
        if (scorer) {
          const score = scorer.score(rank[s] as number, categories[s] as number);
          if (score === 0) continue;
          relevance[s] = score;
        }
        matches[total++] = s;
      }
    }
    scorer?.release();
    return this.page(test, total, search);
  }
}
