import { Redis } from 'ioredis';
import type { RateLimitStore, WindowHit } from './store.js';

/**
 * INCR and the window's expiry in one script, so concurrent requests from several instances are
 * counted exactly. A key without expiry (should never happen) gets one rather than living forever.
 */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type RedisWithHit = Redis & { rateHit(key: string, windowMs: number): Promise<[number, number]> };

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;

  private constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('rateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  /**
   * Connects and waits until Redis answers. Commands fail fast while the connection is down
   * (no offline queue) instead of piling up behind it.
   */
  static async connect(url: string, prefix: string): Promise<RedisRateLimitStore> {
    const redis = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectTimeout: 5000,
    });
    // Errors surface on the commands that fail; an 'error' listener keeps them from crashing the process.
    redis.on('error', () => {});
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect(); // stop the reconnect loop, or it keeps the process alive
      throw error;
    }
    return new RedisRateLimitStore(redis, prefix);
  }

  async hit(bucket: string, windowMs: number): Promise<WindowHit> {
    const [count, ttl] = await this.redis.rateHit(`${this.prefix}rl:${bucket}`, windowMs);
    return { count: Number(count), resetMs: Number(ttl) };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
