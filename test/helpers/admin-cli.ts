import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { AdminContext } from '../../src/cli/admin-context.js';
import { testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/schema.js';
import { childEnv, entryArgs } from './server-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export type AdminRun = CliRun;

/** Runs the admin command (src/cli/admin.ts) with `args` to its end (killed after `ms`). */
export function runAdmin(args: string[], config: Record<string, string>, ms = 30_000): Promise<CliRun> {
  return runCli('src/cli/admin.ts', args, config, ms);
}

/** Runs one of the commands (`src/cli/<name>.ts`, built or through tsx: entryArgs) with `args` to its end (killed after `ms`), as an operator would. */
export function runCli(script: string, args: string[], config: Record<string, string>, ms = 30_000): Promise<CliRun> {
  const child = spawn(process.execPath, [...entryArgs(script), ...args], {
    cwd: ROOT,
    env: childEnv(config),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: ms,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The last line a command printed: where keys go, alone, for scripts to take. */
export function lastLine(output: string): string {
  return output.trimEnd().split('\n').at(-1) ?? '';
}

/**
 * An admin command's context for calling its functions in process (where the test is not about
 * the command line): its result lines go to `lines`; no mail is sent.
 */
export function adminContext(db: Kysely<Database>, lines: string[]): AdminContext {
  return {
    db,
    config: testConfig({}),
    mailer: undefined as never,
    now: new Date(),
    out: (line) => lines.push(line),
    note: () => {},
  };
}
