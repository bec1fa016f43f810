// Runs every test/**/*.test.ts with Node's own test runner (TypeScript through tsx).
// Node 20 has no glob support in --test, hence this file list. Extra arguments pass through,
// e.g. `npm test -- test/http/jobs.test.ts` runs one file.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const requested = process.argv.slice(2);
const files = requested.length > 0 ? requested : testFiles('test').sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
