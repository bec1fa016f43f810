/**
 * Real server processes for tests: `node dist/server.js` (or `node --import tsx src/server.ts`, see
 * entryArgs) on a free port, with exactly
 * the configuration a test gives (nothing inherited from the shell that runs the tests), its
 * output captured, and killed when the test ends if the test did not stop it.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CONFIG_KEYS } from '../../src/config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every variable src/config.ts reads, and the test runner's own: a child sees only those a test passes. */
const CONFIG_VARIABLES = new Set<string>([...CONFIG_KEYS, 'NODE_TEST_CONTEXT']);

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  port: number;
  baseUrl: string;
  /** Resolves once the process has exited and its output is complete. */
  exited: Promise<Exit>;
  running(): boolean;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr as they arrived (log lines go to stdout, start-up failures to stderr). */
  output(): string;
}

/**
 * The arguments that run one of src/'s programs (`src/server.ts`, `src/cli/admin.ts`, ...): its
 * compiled file when the test runner built the project once for the run (TEST_DIST, set by
 * scripts/run-tests.mjs), else the TypeScript through tsx (a test file run on its own). A process
 * started from the build is up in a fraction of the time tsx needs to load the same code.
 */
export function entryArgs(source: string): string[] {
  const dist = process.env.TEST_DIST;
  if (!dist) return ['--import', 'tsx', source];
  return [join(dist, source.replace(/^src\//, '').replace(/\.ts$/, '.js'))];
}

/** This environment without any configuration variable, plus the given ones. */
export function childEnv(config: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !CONFIG_VARIABLES.has(key));
  // ENV_FILE=none: a developer's ./.env never reaches a test's process; a test names its own file.
  return { ...Object.fromEntries(inherited), ENV_FILE: 'none', ...config };
}

/** A port nobody listens on right now: bind port 0, read the port, close. */
export async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return address.port;
}

/**
 * Spawns the server without waiting for it (for start-up failures and concurrent starts). Defaults:
 * HOST 127.0.0.1, a free PORT, LOG_LEVEL silent, SEED_ON_EMPTY false; `config` overrides them.
 * Killed (SIGKILL) when the test ends if it still runs.
 */
export async function spawnServer(
  t: Pick<TestContext, 'after'>,
  config: Record<string, string>,
): Promise<ServerProcess> {
  const port = config.PORT ?? String(await freePort());
  const child = spawn(process.execPath, entryArgs('src/server.ts'), {
    cwd: ROOT,
    env: childEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'silent', SEED_ON_EMPTY: 'false', ...config, PORT: port }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const server: ServerProcess = {
    child,
    port: Number(port),
    baseUrl: `http://127.0.0.1:${port}`,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
  };
  t.after(async () => {
    if (server.running()) child.kill('SIGKILL');
    await exited;
  });
  return server;
}

/** Polls GET /healthz until it answers 200; fails at once, with the output, if the process exits. */
export async function waitUntilHealthy(server: ServerProcess, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!server.running()) {
      const { code, signal } = await server.exited;
      assert.fail(`the server exited (code ${code}, signal ${signal}) before it was healthy:\n${server.output()}`);
    }
    const status = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status,
      () => 0, // not listening yet (still migrating or seeding)
    );
    if (status === 200) return;
    await sleep(100);
  }
  assert.fail(`the server was not healthy after ${ms} ms:\n${server.output()}`);
}

/** Spawns the server (see spawnServer) and waits until it is healthy. */
export async function startServer(
  t: Pick<TestContext, 'after'>,
  config: Record<string, string>,
): Promise<ServerProcess> {
  const server = await spawnServer(t, config);
  await waitUntilHealthy(server);
  return server;
}

/** The process's exit, or a failure (with its output) if it has not exited within `ms`. */
export async function exitWithin(server: ServerProcess, ms: number): Promise<Exit> {
  const timeout = sleep(ms, undefined, { ref: false }).then(() =>
    assert.fail(`the server did not exit within ${ms} ms:\n${server.output()}`),
  );
  return Promise.race([server.exited, timeout]);
}

/** Sends SIGTERM (a graceful stop) and returns how the process exited. */
export async function stopServer(server: ServerProcess, ms = 30_000): Promise<Exit> {
  if (server.running()) server.child.kill('SIGTERM');
  return exitWithin(server, ms);
}

/** Polls `probe` every 20 ms until it gives a value (not undefined or false) and returns it; fails after `ms`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}
