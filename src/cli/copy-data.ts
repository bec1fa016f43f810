// `npm run copy-data -- --from <url> --to <url> [--replace]`: moves a deployment's data between
// databases (SQLite to PostgreSQL, or back for a backup) in one transaction on the target.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CopyRefusedError, type CopyReport, copyDatabase } from '../db/copy-data.js';
import { createDb, type Db, redactDatabaseUrl } from '../db/create-db.js';
import { maskUrlPasswords } from '../domain/secrets.js';
import { progressBar } from './progress.js';

const USAGE = `Usage: npm run copy-data -- --from <database URL> --to <database URL> [--replace] [--strip-nul]

Copies every row of one database into another, e.g. an SQLite deployment into PostgreSQL:
  npm run copy-data -- --from sqlite:./data/marketplace.db --to postgres://user@host:5432/marketplace

  --from URL   the database to read (sqlite:<path> or postgres://...); it is only read
  --to URL     the database to fill; migrated to the latest schema first; must hold no rows
  --replace    delete the rows the target holds first (in the same transaction); the audit
               log is append-only: its entries stay, the source's are added
  --strip-nul  remove NUL characters (U+0000), which PostgreSQL cannot store, from texts;
               without it such a text stops the copy, naming its table, column and row
  --help       this text

Both URLs are required, so a copy never lands in DATABASE_URL by accident. The copy runs in one
transaction on the target: on any error the target keeps what it held before. Stop the service
(or keep it read-only) while copying: rows written after the copy starts are not copied.
A password can come from PGPASSWORD or ~/.pgpass instead of the URL.`;

/** Why the command refused to run; printed with a pointer to --help. */
class UsageError extends Error {}

function required(option: 'from' | 'to', value: string | undefined): string {
  if (!value)
    throw new UsageError(`--${option} is required: the URL of the database to ${option === 'from' ? 'read' : 'fill'}.`);
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(value))
    throw new UsageError(`--${option} must start with sqlite: or postgres://; got ${redactDatabaseUrl(value)}.`);
  return value;
}

/** The file an sqlite: URL names, absolute; null for PostgreSQL and :memory:. */
function sqliteFile(url: string): string | null {
  const path = url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : null;
  return path && path !== ':memory:' ? resolve(path) : null;
}

/** Checks what can be checked before connecting: opening a missing SQLite file would create it. */
function checkUrls(from: string, to: string): void {
  const source = sqliteFile(from);
  if (source && !existsSync(source))
    throw new UsageError(`There is no SQLite database at ${source}; check the path after --from sqlite:.`);
  if (from === to || (source !== null && source === sqliteFile(to)))
    throw new UsageError('--from and --to name the same database; the target must be another one.');
}

function summary(from: string, to: string, report: CopyReport, seconds: number): string {
  const width = Math.max(...report.tables.map(({ table }) => table.length));
  const total = report.tables.reduce((sum, { rows }) => sum + rows, 0);
  const lines = report.tables.map(({ table, rows }) => `  ${table.padEnd(width)}  ${String(rows).padStart(10)}`);
  const migrated = report.migrated.length > 0 ? `Migrated the target first: ${report.migrated.join(', ')}.\n` : '';
  return `${migrated}Copied ${redactDatabaseUrl(from)} to ${redactDatabaseUrl(to)}:\n${lines.join('\n')}\n  ${'total'.padEnd(width)}  ${String(total).padStart(10)} rows in ${seconds.toFixed(1)} s\n`;
}

/** Connects before anything else, so an unreachable database is named as such. */
async function reach(db: Db, role: 'source' | 'target', url: string): Promise<void> {
  try {
    await db.ping();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CopyRefusedError(
      `Cannot reach the ${role} ${redactDatabaseUrl(url)}: ${reason}. Check the URL and that the database runs.`,
    );
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      replace: { type: 'boolean', default: false },
      'strip-nul': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const from = required('from', values.from);
  const to = required('to', values.to);
  checkUrls(from, to);
  const started = Date.now();
  const opened: Db[] = [];
  try {
    // One connection each: the copy reads and writes one statement at a time.
    const source = createDb(from, { poolSize: 1 });
    opened.push(source);
    const target = createDb(to, { poolSize: 1 });
    opened.push(target);
    await reach(source, 'source', from);
    await reach(target, 'target', to);
    const report = await copyDatabase(source, target, {
      replace: values.replace,
      stripNul: values['strip-nul'],
      progress: progressBar(),
    });
    process.stdout.write(summary(from, to, report, (Date.now() - started) / 1000));
  } finally {
    await Promise.all(opened.map((db) => db.close()));
  }
}

/** Masks URL passwords in a message, should a driver quote a URL or a password it was given. */
function withoutPasswords(message: string, args: string[]): string {
  let masked = maskUrlPasswords(message);
  for (const arg of args) {
    const match = /\/\/[^/:@\s]*:([^@\s]+)@/.exec(arg);
    const password = match?.[1];
    if (!password) continue;
    masked = masked.replaceAll(password, '***');
    try {
      masked = masked.replaceAll(decodeURIComponent(password), '***');
    } catch {
      // Not percent-encoded text: then no driver decoded it either.
    }
  }
  return masked;
}

/** What went wrong, and what that means for the target. */
function explain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')))
    return `${message}\n\nSee npm run copy-data -- --help.`;
  if (error instanceof CopyRefusedError) return message;
  return `${message}\nNothing was committed: the target holds the rows it held before.`;
}

main().catch((error: unknown) => {
  process.stderr.write(`copy-data: ${withoutPasswords(explain(error), process.argv.slice(2))}\n`);
  process.exit(1);
});
