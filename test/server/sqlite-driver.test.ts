/**
 * The SQLite driver fits the running Node.js (src/db/sqlite-driver.ts): better-sqlite3 13 (Node-API)
 * from Node 22 on, 12 on Node 20. scripts/other-node.sh runs this file on Node 24 and 22 as well.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { NODE_API_DRIVER_FROM, sqliteDriver } from '../../src/db/sqlite-driver.js';

const require = createRequire(import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

test('the driver for this Node.js: 13 (Node-API) from Node 22 on, else 12', () => {
  const { name, Database } = sqliteDriver();
  assert.equal(name, major >= NODE_API_DRIVER_FROM ? 'better-sqlite3-napi' : 'better-sqlite3');
  const version = (require(`${name}/package.json`) as { version: string }).version;
  assert.equal(version.split('.')[0], major >= NODE_API_DRIVER_FROM ? '13' : '12');
  const db = new Database(':memory:');
  assert.equal((db.prepare('select 1 + 1 as two').get() as { two: number }).two, 2);
  db.close();
});

test('a process that prepares thousands of statements and drops them exits cleanly (no abort at collection)', () => {
  // better-sqlite3 12 on Node 24 aborted here: V8 collecting a Statement after the environment
  // was gone (RemoveEnvironmentCleanupHook: (env) != nullptr).
  const script = `
    const { sqliteDriver } = await import(${JSON.stringify(new URL('../../src/db/sqlite-driver.ts', import.meta.url).href)});
    const db = new (sqliteDriver().Database)(':memory:');
    db.exec('create table t (n integer)');
    for (let i = 0; i < 5000; i += 1) db.prepare('insert into t values (' + i + ')').run();
    console.log(db.prepare('select count(*) as c from t').get().c);
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.deepEqual(
    { status: run.status, signal: run.signal, stdout: run.stdout.trim() },
    {
      status: 0,
      signal: null,
      stdout: '5000',
    },
    run.stderr,
  );
});
