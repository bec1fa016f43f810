import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Tier } from '../domain/tiers.js';
import type { PoolStats } from '../services/database.js';

/** Latency buckets in seconds: from a cached read (sub-millisecond) to the request timeout. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A label value as the exposition format writes it: backslash, double quote and newline escaped. */
const labelValue = (value: string) => value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));

/** The requests of one method, route pattern and status: counted in place, written out at a scrape. */
interface RequestSeries {
  /** `method="GET",route="/v1/jobs/:id",status="200"`, formatted once. */
  labels: string;
  count: number;
  sum: number;
  /** Requests per latency bucket (not cumulative; the scrape adds them up). */
  buckets: number[];
}

/**
 * The service's Prometheus metrics, in a registry of its own per app (tests build many apps in one
 * process; a global registry would mix them). Labels stay bounded: `route` is the matched route
 * pattern (`/v1/jobs/:id`), never the raw URL; requests no route matched are `route="unmatched"`.
 */
export class Metrics {
  readonly registry = new Registry();
  /**
   * http_requests_total and http_request_duration_seconds (issue 34): every request adds to a series
   * found by one Map lookup, a few additions, instead of prom-client's label validation and hashing
   * (about 5 µs a request, measured); the scrape writes them in the exposition format, as
   * prom-client wrote them.
   */
  private readonly series = new Map<string, RequestSeries>();
  private readonly refusals: Counter<'tier'>;
  private readonly compressions: Counter<'encoding'>;

  constructor(options: { pool?: () => PoolStats; processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.refusals = new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused with 429 because their budget was spent, by tier.',
      labelNames: ['tier'],
      registers,
    });
    this.compressions = new Counter({
      name: 'http_response_compressions_total',
      help: 'Answers compressed, by content coding: CPU spent per compression. A reused answer is compressed once per coding and its bytes are kept.',
      labelNames: ['encoding'],
      registers,
    });
    const { pool } = options;
    if (pool) {
      new Gauge({
        name: 'db_pool_connections',
        help: 'Database connections of this instance: open (total), idle, and requests waiting for one.',
        labelNames: ['state'],
        registers,
        collect() {
          const stats = pool();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'in_use' }, stats.total - stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
      new Gauge({
        name: 'db_pool_max_connections',
        help: 'The most database connections this instance opens (DATABASE_POOL_SIZE; 1 for SQLite).',
        registers,
        collect() {
          this.set(pool().max);
        },
      });
    }
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** One answered request. */
  observe(method: string, route: string | undefined, status: number, seconds: number): void {
    const pattern = route ?? 'unmatched';
    const key = `${method} ${status} ${pattern}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        labels: `method="${labelValue(method)}",route="${labelValue(pattern)}",status="${status}"`,
        count: 0,
        sum: 0,
        buckets: LATENCY_BUCKETS.map(() => 0),
      };
      this.series.set(key, series);
    }
    series.count += 1;
    series.sum += seconds;
    const bucket = LATENCY_BUCKETS.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
  }

  /** The request series in the exposition format. */
  private requestText(): string {
    const counts = ['# HELP http_requests_total HTTP requests answered, by method, route pattern and status.'];
    counts.push('# TYPE http_requests_total counter');
    const latency = [
      '# HELP http_request_duration_seconds Time from the request arriving to the response sent, by method, route pattern and status.',
      '# TYPE http_request_duration_seconds histogram',
    ];
    for (const series of this.series.values()) {
      counts.push(`http_requests_total{${series.labels}} ${series.count}`);
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((bound, i) => {
        cumulative += series.buckets[i] ?? 0;
        latency.push(`http_request_duration_seconds_bucket{le="${bound}",${series.labels}} ${cumulative}`);
      });
      latency.push(`http_request_duration_seconds_bucket{le="+Inf",${series.labels}} ${series.count}`);
      latency.push(`http_request_duration_seconds_sum{${series.labels}} ${series.sum}`);
      latency.push(`http_request_duration_seconds_count{${series.labels}} ${series.count}`);
    }
    return `${counts.join('\n')}\n\n${latency.join('\n')}\n\n`;
  }

  refused(tier: Tier): void {
    this.refusals.inc({ tier });
  }

  /** One answer compressed (http/compression.ts). */
  compressed(encoding: string): void {
    this.compressions.inc({ encoding });
  }

  /** The bytes the response cache holds, read at each scrape. */
  watchResponseCache(cache: { bytes: () => number; earlyAnswers: () => number }): void {
    new Gauge({
      name: 'response_cache_bytes',
      help: 'Bytes of reused answers held by this instance, as they are and compressed (at most RESPONSE_CACHE_MB).',
      registers: [this.registry],
      collect() {
        this.set(cache.bytes());
      },
    });
    // Read at a scrape, counted in place by the cache: nothing per request here.
    new Counter({
      name: 'response_cache_early_answers_total',
      help: 'Reused answers sent from the first hook after access and the rate limit, without the rest of the pipeline.',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(cache.earlyAnswers());
      },
    });
  }

  async text(): Promise<string> {
    return this.requestText() + (await this.registry.metrics());
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
