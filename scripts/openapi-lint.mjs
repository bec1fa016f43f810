// Lints the OpenAPI document the app serves twice: with Redocly's `recommended` rules (see
// redocly.yaml), then with Spectral's OpenAPI rules and the OWASP API Security ruleset (see
// .spectral.yaml), which third-party tooling runs. Builds the app in-process from the TypeScript
// sources, takes GET /v1/openapi.json (scripts/served-document.mjs), writes it to a temporary file
// and runs `redocly lint` and `spectral lint` on it, then `redocly lint` on a part (?tags=, openapi/parts.ts). Exits non-zero when either reports an error;
// warnings are printed but do not fail. Extra arguments go to `redocly lint`:
//   node --import tsx scripts/openapi-lint.mjs --format=stylish
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedDocument } from './served-document.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The command-line entry of a package, from its package.json `bin`. */
function binOf(packageName, command) {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${packageName}/package.json`);
  const { bin } = require(manifest);
  return join(dirname(manifest), typeof bin === 'string' ? bin : bin[command]);
}

function run(args, env = {}) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const document = await servedDocument();
const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
try {
  const file = join(dir, 'openapi.json');
  // Indented, so that findings point at a line of their own.
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  const redocly = run(
    [binOf('@redocly/cli', 'redocly'), 'lint', file, '--config', join(root, 'redocly.yaml'), ...process.argv.slice(2)],
    { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  );
  process.stdout.write('\nSpectral (spectral:oas and the OWASP API Security ruleset, .spectral.yaml):\n');
  const spectral = run([
    binOf('@stoplight/spectral-cli', 'spectral'),
    'lint',
    file,
    '--ruleset',
    join(root, '.spectral.yaml'),
    '--fail-severity=error',
  ]);
  // A part (GET /v1/openapi.json?tags=): a document of its own, which tools must take as they take the whole.
  process.stdout.write('\nRedocly on a part (?tags=Bookings,Payments):\n');
  const partFile = join(dir, 'openapi-part.json');
  writeFileSync(partFile, `${JSON.stringify(await servedDocument('?tags=Bookings,Payments'), null, 2)}\n`);
  const part = run(
    [
      binOf('@redocly/cli', 'redocly'),
      'lint',
      partFile,
      '--config',
      join(root, 'redocly.yaml'),
      ...process.argv.slice(2),
    ],
    { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  );
  process.exitCode = redocly !== 0 || spectral !== 0 || part !== 0 ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
