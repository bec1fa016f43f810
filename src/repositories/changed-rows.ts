/** How many rows an update or delete changed (Kysely reports it as a bigint, absent for none). */
export const changedRows = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): number =>
  Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0);
