// The benchmarks' databases (bench/run.mjs, bench/pipeline.mjs): one of its own per run, an SQLite
// file in the run's folder or a fresh PostgreSQL database, dropped after.
import { join } from 'node:path';
import pg from 'pg';

/** A database for `name` (letters, digits, _ and -): its URL, and drop() to remove it. */
export async function createDatabase(engine, name, dir, postgresUrl) {
  if (engine === 'sqlite') return { url: `sqlite:${join(dir, `${name}.db`)}`, drop: async () => {} };
  const database = `kmp_bench_${process.pid}_${name.replaceAll('-', '_')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${database} with (force)`);
      await client.end();
    },
  };
}
