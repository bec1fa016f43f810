/**
 * The official MCP Inspector CLI against the API (scripts/mcp-inspect.ts, `npm run mcp:inspect`):
 * its --strict schema portability check on tools/list and its outputSchema check of every tool
 * call, over Streamable HTTP and stdio, with no warning. On this pass's database engine. Never
 * skipped: the Inspector needs Node >= 22.19 and runs on Node 24 from the npm registry on an older
 * Node; if that cannot be had, the script fails, and so does this test.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshDatabaseUrl } from '../helpers/database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('the MCP Inspector finds nothing: portable tool schemas, answers that match their outputSchema', {
  timeout: 400_000,
}, async (t) => {
  const url = await freshDatabaseUrl(t);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/mcp-inspect.ts'], {
    cwd: ROOT,
    env: { ...process.env, MCP_INSPECT_DATABASE_URL: url },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = await once(child, 'close');
  t.diagnostic(output.trim());
  assert.equal(code, 0, output);
  assert.match(output, /^MCP Inspector 2\.\d+\.\d+ on Node v2[2-9]\./m);
  assert.match(output, /all checks passed/);
  assert.doesNotMatch(output, /^FAIL/m);
  // Every tool called over HTTP, with a developer key; the lists and an error result over both transports.
  for (const tool of [
    'search_jobs',
    'get_job',
    'search_listings',
    'get_listing',
    'get_categories',
    'get_price_estimate',
    'check_availability',
    'get_stats',
    'get_me',
    'get_helper',
    'create_job',
    'apply_to_job',
    'create_booking',
  ]) {
    assert.match(output, new RegExp(`^ok {4}http developer tools/call ${tool} \\(`, 'm'), tool);
  }
  for (const via of ['http anonymous', 'http developer', 'stdio developer']) {
    assert.match(output, new RegExp(`^ok {4}${via} tools/list --strict`, 'm'), via);
  }
  assert.equal(output.match(/tools\/call get_job \(unknown id: isError\)/g)?.length, 2);
});
