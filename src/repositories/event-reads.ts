import type { Queryable } from '../db/queryable.js';
import type { EventRow, EventType } from '../db/schema.js';

/**
 * What the event streams read of an event: no subject id. `audience` is null for public events;
 * for a private one, the JSON array of the accounts it concerns (the private stream's filter).
 */
export type StreamEvent = Pick<
  EventRow,
  'id' | 'type' | 'category' | 'lat' | 'lng' | 'payload' | 'created_at' | 'audience'
>;

const STREAM_COLUMNS = ['id', 'type', 'category', 'lat', 'lng', 'payload', 'created_at', 'audience'] as const;

/** The id of the newest event in the outbox (any type), 0 when it is empty. */
export async function latestEventId(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export interface StreamEventsQuery {
  /** Events with an id above this one. */
  after: number;
  /** ... and up to this one, when given. */
  through?: number;
  /** Of these types only. */
  types: readonly EventType[];
  /** Of this category only, when given. */
  category?: string | null;
  /** Of the events whose audience names this account only (the private stream), when given. */
  audience?: string;
  limit: number;
}

/** Events in id order as the stream reads them (events/stream.ts), ids as numbers on both engines. */
export async function streamEventsAfter(db: Queryable, query: StreamEventsQuery): Promise<StreamEvent[]> {
  let select = db
    .selectFrom('events')
    .select(STREAM_COLUMNS)
    .where('id', '>', query.after)
    .where('type', 'in', query.types);
  if (query.through !== undefined) select = select.where('id', '<=', query.through);
  if (query.category != null) select = select.where('category', '=', query.category);
  const account = query.audience;
  // A narrowing in SQL (ids hold no LIKE wildcard but `_`, which the reader's exact check settles).
  if (account !== undefined) select = select.where('audience', 'like', `%"${account.replace(/[%"\\]/g, '')}"%`);
  const rows = await select.orderBy('id').limit(query.limit).execute();
  // Ids as numbers on both engines (PostgreSQL's bigint arrives as a number too, see create-db).
  // The exact audience check is the reader's (events/stream.ts): a page keeps its SQL length.
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}
