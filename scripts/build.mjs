// Builds dist/ from src/ (tsc -p tsconfig.build.json) when a file under src/ is newer than the last
// build, and says what it does: `npm start` runs it first (a start after the first is not held up by
// a build), and so does the test runner (its server and command processes start from dist/).
//
//   node scripts/build.mjs          build if stale
//   node scripts/build.mjs --force  build
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist/.tsbuildinfo');
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newest(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function builtAt() {
  try {
    return statSync(STAMP).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * Builds dist/ unless it is newer than every input; returns whether it built. Throws when tsc fails,
 * unless `typeErrors` is 'ignore' (the tests: tsc still writes every file, `npm run typecheck` judges types).
 */
export function buildIfStale({
  force = false,
  typeErrors = 'fail',
  log = (line) => process.stderr.write(`${line}\n`),
} = {}) {
  const built = builtAt();
  if (!force && built >= Math.max(...INPUTS.map((input) => newest(join(ROOT, input))))) {
    log('dist/ is up to date with src/');
    return false;
  }
  log(
    built < 0 ? 'building dist/ from src/ (the first time takes about a minute)...' : 'src/ changed: building dist/...',
  );
  const started = Date.now();
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0 && (typeErrors !== 'ignore' || result.status !== 2))
    throw new Error(`tsc -p tsconfig.build.json failed (exit ${result.status ?? result.signal})`);
  // tsc leaves its build info alone when no output changed; the stamp says when dist/ was checked.
  const now = new Date();
  utimesSync(STAMP, now, now);
  log(`built dist/ in ${Math.round((Date.now() - started) / 1000)} s`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    buildIfStale({
      force: process.argv.includes('--force'),
      // The tests' way (scripts/run-tests.mjs): a type error still builds; the type check reports it.
      typeErrors: process.argv.includes('--ignore-type-errors') ? 'ignore' : 'fail',
    });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
