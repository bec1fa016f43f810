// Preloaded into the service by the bench (node --import): the longest event-loop stall of each
// scenario. perf_hooks' histogram samples the loop's delay every 10 ms; the bench asks over IPC
// ("reset" before a scenario, "read" after it) and gets the maximum and the 99th percentile in ms.
// Bench-only: the service's own code is not changed by it.
//
// It also takes the CPU profile of one scenario (issue 34: what each hook costs per request):
// { profile: 'start' } starts V8's sampling profiler in this process, { profile: 'stop', file }
// writes the .cpuprofile of the time between (bench/hook-costs.mjs reads it).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Microseconds between samples: a request costs about a hundred. */
const SAMPLING_US = 200;
let session = null;

function post(method, params = {}) {
  return new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

async function profile(message) {
  if (message.profile === 'start') {
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await post('Profiler.start');
    return { profiling: true };
  }
  const { profile: taken } = await post('Profiler.stop');
  session.disconnect();
  session = null;
  writeFileSync(message.file, JSON.stringify(taken));
  return { profiled: message.file };
}

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.on('message', (message) => {
  if (message === 'reset') {
    histogram.reset();
    process.send?.({ reset: true });
  } else if (message === 'read') {
    process.send?.({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 });
  } else if (typeof message === 'object' && message !== null && 'profile' in message) {
    profile(message).then(
      (answer) => process.send?.(answer),
      (error) => process.send?.({ error: String(error) }),
    );
  }
});
// The IPC channel must not keep the service alive on its own, nor stop a graceful shutdown.
process.channel?.unref();
