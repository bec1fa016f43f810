import type { Queryable } from '../db/queryable.js';
import type { EventRow, EventType } from '../db/schema.js';

/** What the event stream reads of an event: no subject id, no audience (only public events are read). */
export type StreamEvent = Pick<EventRow, 'id' | 'type' | 'category' | 'lat' | 'lng' | 'payload' | 'created_at'>;

const STREAM_COLUMNS = ['id', 'type', 'category', 'lat', 'lng', 'payload', 'created_at'] as const;

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
  const rows = await select.orderBy('id').limit(query.limit).execute();
  // Ids as numbers on both engines (PostgreSQL's bigint arrives as a number too, see create-db).
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}
