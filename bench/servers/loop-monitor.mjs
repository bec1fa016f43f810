// Preloaded into the service by the bench (node --import): the longest event-loop stall of each
// scenario. perf_hooks' histogram samples the loop's delay every 10 ms; the bench asks over IPC
// ("reset" before a scenario, "read" after it) and gets the maximum and the 99th percentile in ms.
// Bench-only: the service's own code is not changed by it.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
process.on('message', (message) => {
  if (message === 'reset') {
    histogram.reset();
    process.send?.({ reset: true });
  } else if (message === 'read') {
    process.send?.({ maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 });
  }
});
// The IPC channel must not keep the service alive on its own, nor stop a graceful shutdown.
process.channel?.unref();
