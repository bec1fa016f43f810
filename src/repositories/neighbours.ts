import { type RawBuilder, sql } from 'kysely';
import type { Queryable } from '../db/queryable.js';

/**
 * Rows whose ids sort next to `id` (half before, half after where possible): what a mistyped or
 * truncated id most likely meant. Uses the primary key index only.
 */
export async function idNeighbours(
  db: Queryable,
  table: 'jobs' | 'listings',
  id: string,
  where: RawBuilder<boolean>,
  count: number,
): Promise<{ id: string; title: string }[]> {
  const side = (after: boolean) =>
    sql<{ id: string; title: string }>`select id, title from ${sql.table(table)}
      where ${where} and id ${sql.raw(after ? '>=' : '<')} ${id}
      order by id ${sql.raw(after ? 'asc' : 'desc')} limit ${count}`.execute(db);
  const [before, after] = await Promise.all([side(false), side(true)]);
  const fromBefore = Math.max(count - after.rows.length, Math.floor(count / 2));
  return [...before.rows.slice(0, fromBefore).reverse(), ...after.rows].slice(0, count);
}
