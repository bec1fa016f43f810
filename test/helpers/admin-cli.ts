import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every variable src/config.ts reads: the child sees only the ones a test passes. */
const CONFIG_VARIABLES = new Set([
  'PORT',
  'HOST',
  'DATABASE_URL',
  'LOG_LEVEL',
  'SEED_ON_EMPTY',
  'RATE_LIMIT_ANONYMOUS_PER_MIN',
  'RATE_LIMIT_DEVELOPER_PER_MIN',
  'RATE_LIMIT_SANDBOX_PER_MIN',
  'REDIS_URL',
  'REDIS_PREFIX',
  'TRUST_PROXY',
  'KEY_ROTATION_GRACE_HOURS',
  'SMTP_URL',
  'MAIL_FROM',
  'OUTBOX_DIR',
  'PUBLIC_URL',
  'NODE_TEST_CONTEXT',
]);

/** This environment without configuration, plus the given variables. */
export function childEnv(config: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !CONFIG_VARIABLES.has(key));
  return { ...Object.fromEntries(inherited), ...config };
}

export interface AdminRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx src/cli/admin.ts ...args` to its end (killed after `ms`). */
export function runAdmin(args: string[], config: Record<string, string>, ms = 30_000): Promise<AdminRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
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
