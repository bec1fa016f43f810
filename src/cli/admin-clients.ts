import { clientsForOperator, setClientLimit } from '../services/oauth-clients.js';
import type { AdminContext, AdminOptions } from './admin-context.js';

/** Every OAuth client: id, name, who registered it, its ceiling (issue 31). */
export async function listClientsTable(ctx: AdminContext): Promise<void> {
  const clients = await clientsForOperator(ctx.db);
  if (clients.length === 0) {
    ctx.out('No OAuth clients yet.');
    return;
  }
  for (const client of clients) {
    const limit =
      client.limit === undefined ? `${ctx.config.OAUTH_CLIENT_LIMIT_PER_MIN}/min (default)` : `${client.limit}/min`;
    ctx.out(
      `${client.id}  ${JSON.stringify(client.name)}  ${client.owner ?? 'self-registered'}  ${limit}  ${client.created_at}`,
    );
  }
}

/** Sets an app's ceiling in requests per minute across all its people. */
export async function limitClient(ctx: AdminContext, id: string, options: AdminOptions): Promise<void> {
  const perMinute = Number(options['per-minute']);
  if (!Number.isInteger(perMinute) || perMinute < 1 || perMinute > 1_000_000) {
    throw new Error('--per-minute needs a whole number from 1 to 1000000.');
  }
  if (!(await setClientLimit({ db: ctx.db, now: ctx.now, claim: null }, id, perMinute))) {
    throw new Error(`No OAuth client '${id}'. \`clients list\` shows them.`);
  }
  ctx.out(`${id} may now make ${perMinute} requests per minute across all its people.`);
}
