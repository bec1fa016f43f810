import pg from 'pg';
import { CHANGE_CHANNEL } from './migrations/0019-change-notify.js';

/**
 * Learns of every committed write to the schema from PostgreSQL's notifications (migration 0019's
 * triggers), on one connection of its own, so the data version (Db.version) costs no round trip.
 *
 * `token()` moves with every notification and with every (re)connection: changes missed while the
 * connection was down can never be mistaken for none. While it is not listening (before the first
 * connection, after losing it, until it is back) `token()` is undefined and the caller asks the
 * database instead (db/create-db.ts). A lost connection is tried again every `retryMs`.
 */
export class ChangeListener {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** Bumped by each connection that starts listening, so tokens of two connections never meet. */
  private generation = 0;
  private changes = 0;
  /** Notifications received and connections made (metrics, tests). */
  readonly counts = { notifications: 0, connections: 0 };

  constructor(
    private readonly url: string,
    private readonly options: { retryMs?: number; onError?: (error: Error) => void } = {},
  ) {}

  /** Whether a connection is listening now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** The change token while listening; undefined otherwise (and listening starts, if it has not). */
  token(): string | undefined {
    if (this.client) return `n${this.generation}.${this.changes}`;
    this.start();
    return undefined;
  }

  /** Starts listening (if not already); resolves when the attempt is over, listening or not. */
  start(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: 'kmp-change-listener',
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
    });
    client.on('error', (error) => {
      this.options.onError?.(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string | null }>('select current_schema() as schema');
      const schema = rows[0]?.schema;
      if (!schema) throw new Error('No schema to listen for: the search_path names no existing schema.');
      client.on('notification', (message) => {
        if (message.channel !== CHANGE_CHANNEL || message.payload !== schema) return;
        this.changes++;
        this.counts.notifications++;
      });
      await client.query(`listen ${CHANGE_CHANNEL}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.generation++;
      this.counts.connections++;
      this.client = client;
    } catch (error) {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      this.retryLater();
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.start();
    }, this.options.retryMs ?? 1_000);
    this.retry.unref();
  }
}
