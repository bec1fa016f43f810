import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type SQLite from 'better-sqlite3';
import {
  type DatabaseConnection,
  type Driver,
  Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type PostgresDialectConfig,
  type QueryResult,
  type RootOperationNode,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import { ChangeListener } from './change-listener.js';
import type { Database } from './schema.js';
import { sqliteDriver } from './sqlite-driver.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Answers when the database does; throws otherwise (readiness). */
  ping(): Promise<void>;
  /**
   * Changes whenever the data may have changed: after every write through this Db, and after any
   * commit by another connection or process (SQLite's data_version; PostgreSQL's snapshot, which
   * moves with every transaction that writes, on any instance). Taken before a read, it tells
   * whether that read's answer may be reused (http/plugins/response-cache.ts).
   */
  version(): Promise<string>;
  /**
   * Where version() learns of other connections' writes: SQLite's pragma (in process), PostgreSQL's
   * notifications (`notify`, no round trip), or a query per call while not listening (`query`).
   */
  versionSource(): 'pragma' | 'notify' | 'query';
  close(): Promise<void>;
  /** Connections now (metrics): SQLite has one, always open. */
  pool(): PoolStats;
}

export interface PoolStats {
  /** Open connections. */
  total: number;
  /** Open connections no query holds. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The most connections this Db opens. */
  max: number;
}

export interface DbOptions {
  /** PostgreSQL connections per instance (ignored by SQLite, which has one). */
  poolSize?: number;
  /**
   * PostgreSQL: a query not answered within this time fails (and its request gets a 503), so a
   * database that stops answering without closing connections (a network partition) holds no
   * request for ever. None when not given (the command-line tools, whose migrations may run long);
   * SQLite runs in process and needs none.
   */
  queryTimeoutMs?: number;
  /** Told about connection errors of idle pooled clients, which would otherwise crash the process. */
  onPoolError?: (error: Error) => void;
  /**
   * PostgreSQL: learn of writes from notifications (db/change-listener.ts) instead of a query per
   * version(); on by default. Off behind a pooler in transaction mode (PgBouncer), which does not
   * deliver notifications (DATABASE_CHANGE_NOTIFY=false).
   */
  changeNotify?: boolean;
  /**
   * SQLite in memory (`sqlite::memory:`): start from this image of a database (a database file's
   * bytes, in rollback-journal mode) instead of an empty one. The tests open a copy of one database
   * migrated once for each test instead of migrating each (test/helpers/database.ts).
   */
  sqliteImage?: Buffer;
}

/** Opens the database a DATABASE_URL names: `sqlite:<path>`, `sqlite::memory:` or `postgres://...`. */
export function createDb(url: string, options: DbOptions = {}): Db {
  if (url.startsWith('sqlite:')) return createSqlite(url.slice('sqlite:'.length), options.sqliteImage);
  if (/^postgres(ql)?:\/\//.test(url)) return createPostgres(url, options);
  throw new Error(`Unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
}

/** The statements the driver sends to begin and end transactions: neither reads nor writes. */
const TRANSACTION_CONTROL = /^\s*(begin|start transaction|commit|rollback|savepoint|release|set transaction)\b/i;

/** Read-only raw SQL; anything else run through a Db counts as a write. */
const READ_ONLY_RAW = /^\s*(select|with|explain|pragma)\b/i;

function isRead(node: RootOperationNode): boolean {
  return node.kind === 'SelectQueryNode' || (node.kind === 'RawNode' && READ_ONLY_RAW.test(node.sqlFragments[0] ?? ''));
}

/**
 * Counts the writes that go through one Kysely instance (transactions, raw statements and all):
 * once when a write is sent and once more when it is done, and (PostgresDialect below) after the
 * commit of each transaction that wrote, so a read that starts after a write's commit never shares
 * a version with one that started before it, whatever else tells of the change and however late.
 */

class WriteCounter implements KyselyPlugin {
  writes = 0;
  private readonly sent = new WeakSet<object>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (!isRead(node)) {
      this.writes += 1;
      this.sent.add(queryId);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.sent.delete(queryId)) this.writes += 1;
    return result;
  }
}

/** Kysely's PostgreSQL dialect, telling `onCommit` after each commit of a transaction that wrote. */
class CommitCountingDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly onCommit: () => void,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    // Connections whose open transaction sent a write: only those commits count.
    const wrote = new WeakSet<DatabaseConnection>();
    const watched = new WeakSet<DatabaseConnection>();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = async () => {
      const connection = await acquire();
      // A write outside a transaction (autocommit) was counted when it was done: start clean.
      wrote.delete(connection);
      if (!watched.has(connection)) {
        watched.add(connection);
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = (query) => {
          if (!isRead(query.query) && !TRANSACTION_CONTROL.test(query.sql)) wrote.add(connection);
          return execute(query);
        };
      }
      return connection;
    };
    const commit = driver.commitTransaction.bind(driver);
    driver.commitTransaction = async (connection) => {
      await commit(connection);
      if (wrote.delete(connection)) this.onCommit();
    };
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      wrote.delete(connection);
      await rollback(connection);
    };
    return driver;
  }
}

/** Prepared statements kept per connection: enough for every query shape the service sends. */
const STATEMENT_CACHE = 500;

/**
 * The connection as Kysely's SQLite dialect sees it, with its statements reused: Kysely prepares
 * every query anew, and preparing costs as much as running a small query. A statement still
 * being read from (busy) is never handed out twice.
 */
function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // The first prepared go first beyond the bound: the shapes are few, and reordering a Map on
      // every hit costs V8 rehashes (see http/plugins/response-cache.ts).
      const cached = statements.get(text);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(text);
      statements.set(text, statement);
      if (statements.size > STATEMENT_CACHE) statements.delete(statements.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * Kysely's SQLite driver, taking turns: the one connection, released while others wait for it, is
 * handed on in the next turn of the event loop. better-sqlite3 answers synchronously, so without
 * this a queue of writes (32 clients posting jobs) ran back to back in one turn, each transaction
 * after the last, and held the event loop for all of them (140-170 ms stalls, measured): no socket
 * was read, no reused answer sent, no timer fired meanwhile. Now one transaction (or query) at a
 * time holds it, a few milliseconds at most. Uncontended, nothing changes.
 */
class TurnTakingSqliteDriver extends SqliteDriver {
  #waiting = 0;

  override async acquireConnection(): Promise<DatabaseConnection> {
    this.#waiting++;
    try {
      return await super.acquireConnection();
    } finally {
      this.#waiting--;
    }
  }

  override async releaseConnection(): Promise<void> {
    if (this.#waiting > 0) await new Promise((resolve) => setImmediate(resolve));
    return super.releaseConnection();
  }
}

class TurnTakingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): TurnTakingSqliteDriver {
    return new TurnTakingSqliteDriver(this.#config);
  }
}

function createSqlite(path: string, image?: Buffer): Db {
  if (image && path !== ':memory:') throw new Error('An SQLite image opens in memory only (sqlite::memory:).');
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // An image is deserialized: an in-memory database of its own, the image's bytes untouched.
  const sqlite = new (sqliteDriver().Database)(image ?? path);
  // WAL lets readers run while a writer commits; NORMAL sync is durable across process crashes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const counter = new WriteCounter();
  const kysely = new Kysely<Database>({
    dialect: new TurnTakingSqliteDialect({ database: reusingStatements(sqlite) }),
    plugins: [counter],
  });
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  // Read once per turn of the event loop, not per request: under load one turn parses many
  // requests, and the pragma (a look at the WAL's shared memory) cost a sixth of a reused answer's
  // CPU. A commit by another process is seen from the next turn on; this process's own writes
  // move the counter at once.
  let turnVersion: unknown;
  const readDataVersion = () => {
    if (turnVersion === undefined) {
      turnVersion = dataVersion.get();
      setImmediate(() => {
        turnVersion = undefined;
      });
    }
    return turnVersion;
  };
  return {
    kysely,
    dialect: 'sqlite',
    ping: async () => {
      sqlite.prepare('select 1').get();
    },
    version: async () => `${counter.writes}:${readDataVersion()}`,
    versionSource: () => 'pragma',
    close: () => kysely.destroy(),
    // One connection; statements run synchronously, so between requests it is always idle.
    pool: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }),
  };
}

/**
 * Counts (bigint) and averages (numeric) arrive from node-postgres as strings, to keep precision
 * beyond 2^53; ours stay far below it, so they are read as numbers, as SQLite returns them. Set on
 * this pool only, not globally for every pg user in the process.
 */
const NUMERIC_TYPES: Record<number, (value: string) => number> = {
  20: Number, // int8: count(*), sum(integer)
  1700: Number, // numeric: avg(integer)
};

function typeParser(oid: number, format?: string): (value: string) => unknown {
  const numeric = NUMERIC_TYPES[oid];
  if (numeric && format !== 'binary') return numeric;
  return pg.types.getTypeParser(oid, format as 'text');
}

function createPostgres(url: string, options: DbOptions): Db {
  const poolSize = options.poolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits at most this long for a free connection, then fails (503) instead of queueing forever.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    ...(options.queryTimeoutMs !== undefined && { query_timeout: options.queryTimeoutMs }),
    // TCP keep-alive finds connections a partition silently broke.
    keepAlive: true,
    types: { getTypeParser: typeParser as typeof pg.types.getTypeParser },
  });
  // Readiness asks on a connection of its own: a pool busy with requests is loaded, not down, and
  // must not take every instance out of the load balancer at once.
  const probe = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 2_000 });
  for (const p of [pool, probe]) {
    p.on('error', (error) => options.onPoolError?.(error));
    // The pool listens for errors of idle connections only. A connection that is checked out but
    // between queries (a transaction awaiting other work, a load that yields between chunks) and
    // loses its socket emits 'error' with no one listening, which would end the process. Heard
    // here, the error reaches the holder through its next query, which fails, and the pool drops
    // the connection when it is released.
    p.on('connect', (client) => client.on('error', (error) => options.onPoolError?.(error)));
  }
  const counter = new WriteCounter();
  const dialect = new CommitCountingDialect({ pool }, () => {
    counter.writes += 1;
  });
  const kysely = new Kysely<Database>({ dialect, plugins: [counter] });
  const listener =
    options.changeNotify === false ? undefined : new ChangeListener(url, { onError: options.onPoolError });
  return {
    kysely,
    dialect: 'postgres',
    ping: async () => {
      await probe.query('select 1');
    },
    version: async () => {
      // Listening, the version is known in process; otherwise (not yet, or the connection was
      // lost) the snapshot, which moves with every transaction that writes, on any instance.
      const token = listener?.token();
      if (token !== undefined) return `${counter.writes}:${token}`;
      const { rows } = await pool.query<{ s: string }>('select pg_current_snapshot()::text as s');
      return `${counter.writes}:s${rows[0]?.s}`;
    },
    versionSource: () => (listener?.listening ? 'notify' : 'query'),
    close: async () => {
      await listener?.close();
      await kysely.destroy();
      await probe.end();
    },
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
  };
}

/** The URL without its password, for messages and logs. */
export function redactDatabaseUrl(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}
