/**
 * The rows of one index that searches have shown, by id, so a page whose rows were shown before
 * needs no query. Emptied whenever the index follows a change of the data (PointTable.follow), so
 * a row read here is never older than the data version the index answers for.
 * Beyond `limit`, the rows read first go first (no reordering on a hit: see response-cache.ts).
 */
export class RowCache<R extends { id: string }> {
  private readonly rows = new Map<string, R>();

  constructor(private readonly limit: number) {}

  /** Forgets every row (the data changed). */
  clear(): void {
    this.rows.clear();
  }

  /** The rows of `ids` (those that exist) by id, the missing ones read with one call to `read`. */
  async get(ids: readonly string[], read: (missing: string[]) => Promise<R[]>): Promise<Map<string, R>> {
    const found = new Map<string, R>();
    const missing: string[] = [];
    for (const id of ids) {
      const row = this.rows.get(id);
      if (row) found.set(id, row);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    for (const row of await read(missing)) {
      found.set(row.id, row);
      this.rows.set(row.id, row);
    }
    for (const id of this.rows.keys()) {
      if (this.rows.size <= this.limit) break;
      this.rows.delete(id);
    }
    return found;
  }
}
