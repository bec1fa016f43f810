/** One request counted in a fixed window that starts with the bucket's first request. */
export interface WindowHit {
  /** Requests in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/**
 * Where request counts live: in process memory for one instance, in Redis for several instances
 * sharing one budget. Implementations count atomically.
 */
export interface RateLimitStore {
  hit(bucket: string, windowMs: number): Promise<WindowHit>;
  /** Throws unless a shared store answers (readiness); absent on the in-memory store, which is always there. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Counts in a Map, bounded: expired windows are swept every 10,000 hits or when the map is full,
 * and when it is still full the oldest windows go (a flood of new addresses cannot exhaust memory;
 * the worst case is that an evicted client starts a fresh window).
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private hitsSinceSweep = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxBuckets = 100_000,
  ) {}

  async hit(bucket: string, windowMs: number): Promise<WindowHit> {
    const now = this.now();
    if (++this.hitsSinceSweep >= 10_000 || this.windows.size >= this.maxBuckets) this.sweep(now);
    let window = this.windows.get(bucket);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(bucket, window);
    }
    window.count += 1;
    return { count: window.count, resetMs: window.endsAt - now };
  }

  private sweep(now: number): void {
    this.hitsSinceSweep = 0;
    for (const [bucket, window] of this.windows) if (window.endsAt <= now) this.windows.delete(bucket);
    // Map iterates in insertion order: the first entries are the oldest windows.
    for (const bucket of this.windows.keys()) {
      if (this.windows.size < this.maxBuckets) break;
      this.windows.delete(bucket);
    }
  }

  /** Buckets held now (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
