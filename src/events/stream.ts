import type { Queryable } from '../db/queryable.js';
import type { EventType } from '../db/schema.js';
import { type EventFilter, PUBLIC_EVENT_TYPES, passes } from '../domain/events.js';
import { latestEventId, type StreamEvent, streamEventsAfter } from '../repositories/event-reads.js';

export type { StreamEvent };

/** Someone the hub sends events to: an open stream. */
export interface Subscriber {
  readonly filter: EventFilter;
  /**
   * The account of a private stream: it gets the private events whose audience names it. Without
   * one, a subscriber never gets a private event, whatever hub it joins.
   */
  readonly account?: string;
  readonly types: ReadonlySet<EventType>;
  /** Whether the subscriber has gone; the hub stops catching it up. */
  readonly closed: boolean;
  /** Sends a matching event; false when its buffer is full (the hub then waits for `drained` while catching up). */
  send(event: StreamEvent): boolean;
  /** Resolves when the buffer has room again, or the subscriber has closed. */
  drained(): Promise<void>;
}

export interface HubOptions {
  /** How often the outbox is read for new events (EVENTS_POLL_MS). */
  pollMs: number;
  /** Told about a failed read of the outbox; the hub retries at the next interval. */
  onError: (error: unknown) => void;
  /** Told once the outbox can be read again after failures. */
  onRecovered?: (failures: number) => void;
  /** Events read per poll query (more are read at once when a query fills up). */
  batchSize?: number;
  /** Events read per catch-up query. */
  pageSize?: number;
  /** The event types the hub reads: the public ones (the default), or the private ones (GET /v1/me/events/stream). */
  types?: readonly EventType[];
}

interface Member {
  readonly subscriber: Subscriber;
  /** The highest event id this member has been given or has passed over: never sent again. */
  last: number;
}

/**
 * One poller per app for every open stream: while at least one stream is open (started with the
 * first, stopped with the last), it reads the public events after the last one it saw every
 * `pollMs` and hands each to the streams in memory, which apply their own filters. The outbox is in
 * the database, so streams on every instance see the writes made on every other one.
 *
 * Ids become visible in commit order (see recordEvent), so "after the last id seen" loses nothing.
 * A stream that joins after an id (Last-Event-ID) first reads the events after it up to the
 * poller's cursor from the database itself, page by page at its own pace, and goes live in the same
 * tick in which it has reached the cursor: events up to the cursor it read itself, the ones after
 * it come from the poller. An event is never sent twice: each member remembers the last id it had.
 */
export class EventHub {
  private readonly members = new Set<Member>();
  private readonly live = new Set<Member>();
  /** The id of the last event the poller has handed out (events after it are still to be read). */
  private cursor = 0;
  private starting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Moves whenever the poller stops: a poll of an earlier generation hands nothing out. */
  private generation = 0;
  private failures = 0;
  private closed = false;

  private readonly types: readonly EventType[];

  constructor(
    private readonly db: Queryable,
    private readonly options: HubOptions,
  ) {
    this.types = options.types ?? PUBLIC_EVENT_TYPES;
  }

  /** The id of the newest event in the outbox (any type): where a stream without Last-Event-ID starts. */
  latestId(): Promise<number> {
    return latestEventId(this.db);
  }

  /** Streams following the hub (catching up or live). */
  get size(): number {
    return this.members.size;
  }

  /**
   * Starts the poller if it is not running (its cursor at the newest event). A failure (the
   * database is down) is thrown, so the request opening a stream can answer 503.
   */
  async start(): Promise<void> {
    if (this.closed) throw new Error('the event hub is closed');
    if (this.timer !== null) return;
    if (!this.starting) {
      const generation = this.generation;
      const starting: Promise<void> = this.latestId().then(
        (latest) => {
          if (this.starting === starting) this.starting = null;
          // Stopped meanwhile (its streams left, or the app closes): a later start begins afresh.
          if (generation !== this.generation || this.closed || this.timer !== null) return;
          this.cursor = latest;
          this.schedule(generation);
        },
        (error: unknown) => {
          if (this.starting === starting) this.starting = null;
          throw error;
        },
      );
      this.starting = starting;
    }
    return this.starting;
  }

  /**
   * Adds a subscriber that has seen every event up to `after`: it gets the matching events after
   * it, first from the database (waiting for its buffer to drain), then live from the poller.
   * Resolves once it is live (or gone); rejects when catching up fails. Call `leave` when it closes.
   */
  async join(subscriber: Subscriber, after: number): Promise<void> {
    const member: Member = { subscriber, last: after };
    this.members.add(member);
    await this.start();
    const types = this.types.filter((type) => subscriber.types.has(type));
    const pageSize = this.options.pageSize ?? 500;
    for (;;) {
      if (subscriber.closed || !this.members.has(member)) return;
      // Read synchronously with the decision below: no poll can hand out events in between.
      const target = this.cursor;
      if (member.last >= target) {
        this.live.add(member);
        return;
      }
      if (types.length === 0) {
        member.last = target;
        continue;
      }
      const page = await streamEventsAfter(this.db, {
        after: member.last,
        through: target,
        types,
        category: subscriber.filter.category,
        ...(subscriber.account === undefined ? {} : { audience: subscriber.account }),
        limit: pageSize,
      });
      for (const event of page) {
        if (subscriber.closed) return;
        member.last = event.id;
        if (
          visibleTo(subscriber, event, audienceOf(event)) &&
          passes(subscriber.filter, event) &&
          !subscriber.send(event)
        ) {
          await subscriber.drained();
        }
      }
      // A short page read everything up to the target: events in between were private or filtered out.
      if (page.length < pageSize) member.last = Math.max(member.last, target);
    }
  }

  /** Removes a subscriber; the poller stops with the last one. */
  leave(subscriber: Subscriber): void {
    for (const member of this.members) {
      if (member.subscriber !== subscriber) continue;
      this.members.delete(member);
      this.live.delete(member);
    }
    this.stopIfIdle();
  }

  /** Stops the poller when no stream follows it (after a start for a stream that then failed to open). */
  stopIfIdle(): void {
    if (this.members.size === 0) this.stop();
  }

  /** Stops the poller for good (the app closes); streams are ended by their owner. */
  close(): void {
    this.closed = true;
    this.members.clear();
    this.live.clear();
    this.stop();
  }

  private stop(): void {
    this.generation += 1;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.starting = null;
  }

  private schedule(generation: number): void {
    this.timer = setTimeout(() => void this.poll(generation), this.options.pollMs);
    // The poller alone never keeps the process alive: the streams it serves do.
    this.timer.unref();
  }

  private async poll(generation: number): Promise<void> {
    const batchSize = this.options.batchSize ?? 1000;
    try {
      for (;;) {
        const rows = await streamEventsAfter(this.db, {
          after: this.cursor,
          types: this.types,
          limit: batchSize,
        });
        if (generation !== this.generation) return;
        // Synchronously: a joining stream sees the cursor only between whole batches.
        for (const event of rows) {
          this.cursor = event.id;
          // A private event's audience is read once, not once per stream.
          const audience = audienceOf(event);
          for (const member of this.live) offer(member, event, audience);
        }
        if (rows.length < batchSize) break;
      }
      if (this.failures > 0) this.options.onRecovered?.(this.failures);
      this.failures = 0;
    } catch (error) {
      if (generation !== this.generation) return;
      this.failures += 1;
      // Once per streak, then every 100th: a database that is down for a while fills no log.
      if (this.failures % 100 === 1) this.options.onError(error);
    }
    if (generation === this.generation) this.schedule(generation);
  }
}

/** The accounts a private event names (none for a public one, or an unreadable audience). */
function audienceOf(event: StreamEvent): ReadonlySet<string> | null {
  if (event.audience === null) return null;
  try {
    const accounts: unknown = JSON.parse(event.audience);
    return new Set(Array.isArray(accounts) ? accounts.filter((a): a is string => typeof a === 'string') : []);
  } catch {
    return new Set();
  }
}

/** A public event is for every subscriber; a private one only for the private stream of an account it names. */
function visibleTo(subscriber: Subscriber, event: StreamEvent, audience: ReadonlySet<string> | null): boolean {
  if (event.audience === null) return subscriber.account === undefined;
  return subscriber.account !== undefined && (audience?.has(subscriber.account) ?? false);
}

function offer(member: Member, event: StreamEvent, audience: ReadonlySet<string> | null): void {
  if (event.id <= member.last) return;
  member.last = event.id;
  const { subscriber } = member;
  if (subscriber.types.has(event.type) && visibleTo(subscriber, event, audience) && passes(subscriber.filter, event)) {
    subscriber.send(event);
  }
}

/**
 * Open streams per caller on this instance. Admitting and releasing are synchronous, so streams
 * opened at the same moment cannot both take the last slot.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot for `caller`; false when it holds `max` already. */
  take(caller: string): boolean {
    const count = this.open.get(caller) ?? 0;
    if (count >= this.max) return false;
    this.open.set(caller, count + 1);
    return true;
  }

  release(caller: string): void {
    const count = (this.open.get(caller) ?? 0) - 1;
    if (count > 0) this.open.set(caller, count);
    else this.open.delete(caller);
  }

  /** The streams `caller` has open. */
  count(caller: string): number {
    return this.open.get(caller) ?? 0;
  }
}
