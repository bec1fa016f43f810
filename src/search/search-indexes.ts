import type { Db } from '../db/create-db.js';
import {
  type ChangeCursor,
  changeCursorNow,
  changesSince,
  jobIndexRowsOf,
  listingIndexRowsOf,
} from '../repositories/search-changes.js';
import { NotMirrorable } from './columns.js';
import { JobIndex } from './job-index.js';
import { ListingIndex } from './listing-index.js';

/** Both indexes, answering for one data version (Db.version, read before the rows were). */
export interface IndexSnapshot {
  version: string;
  jobs: JobIndex;
  listings: ListingIndex;
  /** Lets these indexes go (they were found inconsistent: sorted-values.ts FiguresBroken) and rebuilds. */
  discard?: (error: unknown) => void;
}

export interface SearchIndexOptions {
  /** Least time between two rebuilds, however often they are needed (SEARCH_INDEX_REFRESH_MS). */
  minGapMs: number;
  /** A rebuild that failed (the database went away): searches keep using SQL meanwhile. */
  onError?: (error: unknown) => void;
}

/** Changes read at most per follow; more, and rebuilding is cheaper than following. */
export const FOLLOW_LIMIT = 20_000;

/**
 * The in-memory search indexes of open jobs and available listings, kept current as the data changes.
 *
 * A request asks for the indexes at the data version it started at (http/data-version.ts). When the
 * version moved, the indexes first follow the changes: the ids of the jobs and listings written
 * since, from the log the database's triggers keep (migration 0020, repositories/search-changes.ts),
 * whoever wrote them (any instance, the admin command, psql); the changed rows are read again by id,
 * their old points dropped and their new ones appended (PointTable.follow). One follow runs at a
 * time, and every request waits for one that started after it came, so a write is in the very next
 * search. Following costs a query per version change and a query per changed row, not a rebuild.
 *
 * A full rebuild happens at start, when the appended points fill the room kept for them, when more
 * than FOLLOW_LIMIT changes wait, when the log was pruned past the index, or after a failure; until
 * it is done (in the background, at most one at a time, no sooner than max(minGapMs, 10 × the
 * last build's time) after the last) searches run as SQL. A rebuild reads the rows in chunks
 * (columns.ts LOAD_CHUNK), never holding SQLite's connection for long.
 */
export class SearchIndexes {
  private state: { snapshot: IndexSnapshot; cursor: ChangeCursor } | undefined;
  private building: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastEnd = 0;
  private lastDurationMs = 0;
  /** The version a build found data it cannot mirror at: not tried again until the data changes. */
  private failedVersion: string | undefined;
  private closed = false;
  /** The follow under way, the number of follows started, and of the last one finished. */
  private following: Promise<void> | undefined;
  private followsStarted = 0;
  private followedUpTo = 0;
  /**
   * Searches answered from the index and those that went to SQL (no index: building, failed);
   * builds; follows (each a version change) and the rows they changed.
   */
  readonly counts = { hits: 0, misses: 0, builds: 0, follows: 0, followedRows: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: SearchIndexOptions,
  ) {}

  /**
   * The indexes as of `version` (read at the request's start) or newer; undefined while there are
   * none (a rebuild is then scheduled) or following failed.
   */
  async at(version: string): Promise<IndexSnapshot | undefined> {
    const state = this.state;
    if (state && state.snapshot.version === version) {
      this.counts.hits++;
      return state.snapshot;
    }
    if (state) {
      try {
        await this.followAfter(this.followsStarted);
      } catch (error) {
        this.drop(error);
      }
      const now = this.state;
      if (now) {
        this.counts.hits++;
        return now.snapshot;
      }
    }
    this.counts.misses++;
    if (version !== this.failedVersion) this.schedule();
    return undefined;
  }

  /** Whether searches are answered from the indexes now: false before the first build and during a rebuild. */
  get ready(): boolean {
    return this.state !== undefined;
  }

  /** Builds the indexes now (after any build in flight); resolves when they are in place. */
  async refresh(): Promise<IndexSnapshot | undefined> {
    while (this.building) await this.building;
    this.building = this.build().finally(() => {
      this.building = undefined;
    });
    await this.building;
    return this.state?.snapshot;
  }

  /** Follows the changes now (tests; requests do it themselves). */
  async follow(): Promise<IndexSnapshot | undefined> {
    if (this.state) await this.followAfter(this.followsStarted);
    return this.state?.snapshot;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** Waits until a follow that started after the `started`-th one has finished (starting one if none is under way). */
  private async followAfter(started: number): Promise<void> {
    while (this.state && this.followedUpTo <= started) {
      if (this.following) {
        await this.following;
        continue;
      }
      const number = ++this.followsStarted;
      this.following = this.followOnce()
        .then(() => {
          this.followedUpTo = Math.max(this.followedUpTo, number);
        })
        .finally(() => {
          this.following = undefined;
        });
      await this.following;
    }
  }

  private async followOnce(): Promise<void> {
    const state = this.state;
    if (!state) return;
    // The version first: everything written before it is in the changes read after it.
    const version = await this.db.version();
    const batch = await changesSince(this.db.kysely, state.cursor, FOLLOW_LIMIT);
    if (this.state !== state) return;
    if (batch.pruned || batch.full) {
      this.drop(null);
      return;
    }
    const [jobs, listings] = await Promise.all([
      batch.jobs.length > 0 ? jobIndexRowsOf(this.db.kysely, batch.jobs) : [],
      batch.listings.length > 0 ? listingIndexRowsOf(this.db.kysely, batch.listings) : [],
    ]);
    if (this.state !== state) return;
    // From here on nothing awaits: no search sees an index half changed.
    const { snapshot } = state;
    if (!snapshot.jobs.follow(batch.jobs, jobs) || !snapshot.listings.follow(batch.listings, listings)) {
      this.drop(null);
      return;
    }
    state.cursor = batch.cursor;
    state.snapshot = { ...snapshot, version };
    this.counts.follows++;
    this.counts.followedRows += batch.jobs.length + batch.listings.length;
  }

  /** Lets the indexes go (searches go to SQL) and schedules a rebuild; `error` is reported. */
  private drop(error: unknown): void {
    this.state = undefined;
    if (error !== null && !this.closed) this.options.onError?.(error);
    this.schedule();
  }

  private schedule(): void {
    if (this.building || this.timer || this.closed) return;
    const gap = Math.max(this.options.minGapMs, 10 * this.lastDurationMs);
    const delay = Math.max(0, this.lastEnd + gap - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.closed || this.building) return;
      this.building = this.build()
        .catch((error: unknown) => {
          if (!this.closed) this.options.onError?.(error);
        })
        .finally(() => {
          this.building = undefined;
        });
    }, delay);
    this.timer.unref();
  }

  private async build(): Promise<void> {
    const started = Date.now();
    // Indexes that are rebuilt are let go before the new ones are read, so memory holds one, not two.
    this.state = undefined;
    let version: string | undefined;
    try {
      version = await this.db.version();
      const cursor = await changeCursorNow(this.db.kysely);
      const jobs = await JobIndex.load(this.db.kysely);
      const listings = await ListingIndex.load(this.db.kysely);
      if (this.closed) return;
      const discard = (error: unknown) => {
        if (this.state?.snapshot.jobs === jobs) this.drop(error);
      };
      this.state = { snapshot: { version, jobs, listings, discard }, cursor };
      this.counts.builds++;
    } catch (error) {
      // Data the index cannot mirror stays so until a write: no retry before then. Anything else
      // (the database went away) is tried again after the gap.
      if (error instanceof NotMirrorable) this.failedVersion = version;
      throw error;
    } finally {
      this.lastEnd = Date.now();
      this.lastDurationMs = this.lastEnd - started;
    }
  }
}
