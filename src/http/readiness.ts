/** A dependency check: resolves when the dependency answers. */
export type Probe = () => Promise<void>;

export type ProbeOutcome = 'ok' | 'timeout' | 'unreachable';

/** How long a readiness check waits for each dependency. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether this instance is shutting down: server.ts marks it on SIGTERM, /readyz then answers 503
 * so load balancers stop sending traffic while requests in flight finish.
 */
export class Readiness {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  markDraining(): void {
    this.#draining = true;
  }
}

/** Each probe's outcome: 'ok', or why it failed ("timeout" or "unreachable", never internals). */
export async function runProbes(probes: Readonly<Record<string, Probe>>): Promise<Record<string, ProbeOutcome>> {
  const entries = await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => [name, await outcome(probe)] as const),
  );
  return Object.fromEntries(entries);
}

async function outcome(probe: Probe): Promise<ProbeOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => 'ok' as const), timeout]);
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}
