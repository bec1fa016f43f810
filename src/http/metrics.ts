import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Tier } from '../domain/tiers.js';
import type { PoolStats } from '../services/database.js';

/** Latency buckets in seconds: from a cached read (sub-millisecond) to the request timeout. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The service's Prometheus metrics, in a registry of its own per app (tests build many apps in one
 * process; a global registry would mix them). Labels stay bounded: `route` is the matched route
 * pattern (`/v1/jobs/:id`), never the raw URL; requests no route matched are `route="unmatched"`.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  private readonly refusals: Counter<'tier'>;
  private readonly compressions: Counter<'encoding'>;

  constructor(options: { pool?: () => PoolStats; processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request arriving to the response sent, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
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
    const labels = { method, route: route ?? 'unmatched', status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  refused(tier: Tier): void {
    this.refusals.inc({ tier });
  }

  /** One answer compressed (http/compression.ts). */
  compressed(encoding: string): void {
    this.compressions.inc({ encoding });
  }

  /** The bytes the response cache holds, read at each scrape. */
  watchResponseCache(bytes: () => number): void {
    new Gauge({
      name: 'response_cache_bytes',
      help: 'Bytes of reused answers held by this instance, as they are and compressed (at most RESPONSE_CACHE_MB).',
      registers: [this.registry],
      collect() {
        this.set(bytes());
      },
    });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
