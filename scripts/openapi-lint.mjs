// Lints the OpenAPI document the app serves with Redocly's `recommended` rules (see redocly.yaml).
// Builds the app in-process from the TypeScript sources, takes GET /v1/openapi.json, writes it to a
// temporary file and runs `redocly lint` on it. Exits non-zero when Redocly reports an error;
// warnings are printed but do not fail. Extra arguments go to `redocly lint`:
//   node --import tsx scripts/openapi-lint.mjs --format=stylish
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The app is TypeScript: without `--import tsx` on the command line, load tsx's hooks here.
if (![...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((arg) => arg.includes('tsx'))) {
  const { register } = await import('tsx/esm/api');
  register();
}

/** The document exactly as the app serves it; building it needs no data, so the database is empty. */
async function servedDocument() {
  const { buildApp } = await import('../src/app.ts');
  const { testConfig } = await import('../src/config.ts');
  const { createDb } = await import('../src/db/create-db.ts');
  const db = createDb('sqlite::memory:');
  const app = await buildApp(testConfig(), { db });
  try {
    const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    if (response.statusCode !== 200) {
      throw new Error(`GET /v1/openapi.json answered ${response.statusCode}: ${response.body.slice(0, 500)}`);
    }
    return response.json();
  } finally {
    await app.close();
    await db.close();
  }
}

function redoclyCli() {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@redocly/cli/package.json');
  return join(dirname(manifest), require(manifest).bin.redocly);
}

const document = await servedDocument();
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
try {
  const file = join(dir, 'openapi.json');
  // Indented, so that findings point at a line of their own.
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  const result = spawnSync(
    process.execPath,
    [redoclyCli(), 'lint', file, '--config', join(root, 'redocly.yaml'), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
  );
  if (result.error) throw result.error;
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
