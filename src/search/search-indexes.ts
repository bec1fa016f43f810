import type { Db } from '../db/create-db.js';
import { NotMirrorable } from './columns.js';
import { JobIndex } from './job-index.js';
import { ListingIndex } from './listing-index.js';

/** Both indexes, as of one data version (Db.version, read before the rows were). */
export interface IndexSnapshot {
  version: string;
  jobs: JobIndex;
  listings: ListingIndex;
}

export interface SearchIndexOptions {
  /** Least time between two rebuilds, however often the data changes (SEARCH_INDEX_REFRESH_MS). */
  minGapMs: number;
  /** A rebuild that failed (the database went away): searches keep using SQL meanwhile. */
  onError?: (error: unknown) => void;
}

/**
 * The in-memory search indexes of open jobs and available listings, and when they may be used.
 *
 * A snapshot answers a search only when it was built at the data version the request started at
 * (http/data-version.ts): a write by any instance or process changes the version, so the very next
 * search goes to SQL and sees it. A stale snapshot schedules a rebuild in the background, at most
 * one at a time and no sooner than max(minGapMs, 10 × the last build's time) after the last one,
 * so a steady stream of writes costs at most about a tenth of a core; until it is done, searches
 * run as SQL. A rebuild reads the rows in chunks (columns.ts LOAD_CHUNK), never holding SQLite's
 * connection for long.
 */
export class SearchIndexes {
  private snapshot: IndexSnapshot | undefined;
  private building: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastEnd = 0;
  private lastDurationMs = 0;
  /** The version a build found data it cannot mirror at: not tried again until the data changes. */
  private failedVersion: string | undefined;
  private closed = false;
  /** Searches answered from the index, and those that went to SQL because it was stale. */
  readonly counts = { hits: 0, misses: 0, builds: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: SearchIndexOptions,
  ) {}

  /** The snapshot built at `version`, if there is one; otherwise undefined and a rebuild is scheduled. */
  at(version: string): IndexSnapshot | undefined {
    const snapshot = this.snapshot;
    if (snapshot && snapshot.version === version) {
      this.counts.hits++;
      return snapshot;
    }
    this.counts.misses++;
    if (version !== this.failedVersion) this.schedule();
    return undefined;
  }

  /** Builds a snapshot now (after any build in flight); resolves when it is in place. */
  async refresh(): Promise<IndexSnapshot | undefined> {
    while (this.building) await this.building;
    this.building = this.build().finally(() => {
      this.building = undefined;
    });
    await this.building;
    return this.snapshot;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
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
    // A snapshot of an older version never matches again (versions only move on): let it go
    // before the new one is read, so memory holds one index, not two.
    this.snapshot = undefined;
    let version: string | undefined;
    try {
      version = await this.db.version();
      const jobs = await JobIndex.load(this.db.kysely);
      const listings = await ListingIndex.load(this.db.kysely);
      if (this.closed) return;
      this.snapshot = { version, jobs, listings };
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
