import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';

/**
 * The dependency rules (.dependency-cruiser.cjs, run by `npm run lint`) hold for src/, and they
 * do fail on what they forbid: each probe tree below breaks one rule and is refused by it.
 */
const rules = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as IConfiguration;

async function violationsIn(files: Record<string, string>): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'kmp-deps-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
    const { output } = await cruise(['src'], {
      validate: true,
      ruleSet: { forbidden: rules.forbidden ?? [] },
      baseDir: root,
    });
    return (output as ICruiseResult).summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('src/ keeps the dependency rules', async () => {
  const { output } = await cruise(['src'], {
    ...rules.options,
    validate: true,
    ruleSet: { forbidden: rules.forbidden ?? [] },
  });
  assert.deepEqual(
    (output as ICruiseResult).summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`),
    [],
  );
});

test('a repository importing from http/ breaks a rule', async () => {
  assert.deepEqual(
    await violationsIn({
      'src/http/schema.js': 'export const x = 1;\n',
      'src/repositories/jobs.js': "import { x } from '../http/schema.js';\nexport const y = x;\n",
    }),
    ['repositories-imports-down-only: src/repositories/jobs.js -> src/http/schema.js'],
  );
});

test('domain/ importing anything else of src/ breaks a rule', async () => {
  assert.deepEqual(
    await violationsIn({
      'src/db/schema.js': 'export const x = 1;\n',
      'src/domain/rules.js': "import { x } from '../db/schema.js';\nexport const y = x;\n",
    }),
    ['domain-imports-down-only: src/domain/rules.js -> src/db/schema.js'],
  );
});

test('a circle between modules breaks a rule', async () => {
  const violations = await violationsIn({
    'src/search/a.js': "import { b } from './b.js';\nexport const a = () => b;\n",
    'src/search/b.js': "import { a } from './a.js';\nexport const b = () => a;\n",
  });
  assert.ok(violations.length > 0 && violations.every((v) => v.startsWith('no-circular:')), violations.join('\n'));
});

test('Kysely outside repositories/ and db/ breaks a rule', async () => {
  const violations = await violationsIn({
    'node_modules/kysely/package.json': '{"name":"kysely","main":"index.js"}\n',
    'node_modules/kysely/index.js': 'export const sql = 1;\n',
    'src/services/jobs.js': "import { sql } from 'kysely';\nexport const q = sql;\n",
  });
  assert.deepEqual(violations, ['queries-only-in-repositories: src/services/jobs.js -> node_modules/kysely/index.js']);
});

test('a plugin importing from http/routes breaks a rule', async () => {
  assert.deepEqual(
    await violationsIn({
      'src/http/routes/kit.js': 'export const x = 1;\n',
      'src/http/plugins/access.js': "import { x } from '../routes/kit.js';\nexport const y = x;\n",
    }),
    ['http-plugins-not-routes: src/http/plugins/access.js -> src/http/routes/kit.js'],
  );
});

test('http/ importing from repositories/ or db/ breaks a rule: it reads through services/', async () => {
  assert.deepEqual(
    await violationsIn({
      'src/repositories/jobs.js': 'export const findJob = () => null;\n',
      'src/db/schema.js': 'export const x = 1;\n',
      'src/services/search.js': "import { findJob } from '../repositories/jobs.js';\nexport const jobById = findJob;\n",
      'src/http/routes/jobs.js':
        "import { findJob } from '../../repositories/jobs.js';\nimport { jobById } from '../../services/search.js';\nexport const r = [findJob, jobById];\n",
      'src/http/sse.js': "import { x } from '../db/schema.js';\nexport const y = x;\n",
    }),
    [
      'http-imports-down-only: src/http/routes/jobs.js -> src/repositories/jobs.js',
      'http-imports-down-only: src/http/sse.js -> src/db/schema.js',
    ],
  );
});
