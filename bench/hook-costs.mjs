// What each part of the request pipeline costs per request (issue 34), read from a V8 CPU profile
// (`node --cpu-prof`) of the service under wrk. Every sample's time goes to one part:
//
// - Node's http, streams and sockets when their frames come first (writing an answer is theirs,
//   whichever hook writes it: the response cache's early answers write from their hook);
// - else the innermost frame of a plugin (dist/http/plugins/<name>.js) or of a route
//   (dist/http/routes/...): a hook that calls the rate-limit store is that hook's cost, a route
//   that calls services is the route's own work (its handler, services, queries, serialising);
// - otherwise the innermost frame of Fastify, of its helpers (find-my-way, light-my-request,
//   fast-json-stringify, avvio...), of pino (logging), or of Node's http and socket code;
// - the garbage collector, and what V8 names (program);
// - idle time is left out: per request is the CPU the service spent, divided by the requests.
//
// The parts are listed in one table per scenario, in microseconds per request.

/** Which part a frame of the service belongs to; null when the frame says nothing (keep looking). */
function partOf(frame) {
  const { url, functionName } = frame.callFrame;
  if (!url) {
    if (functionName === '(garbage collector)') return 'garbage collector';
    if (functionName === '(program)') return '(program): V8 and native code between JavaScript';
    return null;
  }
  const plugin = /\/dist\/http\/plugins\/([\w-]+)\.js$/.exec(url);
  if (plugin) return `plugin: ${plugin[1]}`;
  if (/\/dist\/http\/routes\//.test(url)) return "route: the handler's own work (services, queries, JSON)";
  return null;
}

const NODE_PART = "Node's http, streams and sockets";

/** The part a library or Node frame belongs to, when no plugin or route frame is on the stack. */
function outsidePartOf(frame) {
  const { url } = frame.callFrame;
  if (/node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream)\//.test(url)) return 'pino (logging)';
  if (/node_modules\/(fast-json-stringify|ajv|fast-uri)\//.test(url)) return 'schemas (validation, serialising)';
  if (/node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify\/[\w-]+|fastq|toad-cache)\//.test(url))
    return 'Fastify (routing, hook runner, reply)';
  if (/node_modules\/(better-sqlite3|better-sqlite3-napi|pg|pg-protocol|pg-pool|kysely)\//.test(url))
    return 'database driver';
  if (/\/dist\//.test(url)) return 'the service outside plugins and routes';
  if (url.startsWith('node:')) return NODE_PART;
  return null;
}

/**
 * Microseconds per request of each part, from a parsed .cpuprofile and the number of requests it
 * covered, largest first; the total is the CPU per request.
 */
export function hookCosts(profile, requests) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partOfNode = new Map();
  const resolve = (id) => {
    if (partOfNode.has(id)) return partOfNode.get(id);
    let outside = null;
    let part = null;
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame.callFrame.functionName === '(idle)') {
        part = 'idle';
        break;
      }
      part = partOf(frame);
      if (part) break;
      outside ??= outsidePartOf(frame);
      // Writing the answer (the socket's writev, the headers' checks) is Node's whichever hook calls it:
      // the response cache's early answers write from their hook.
      if (outside === NODE_PART) break;
    }
    const result = part ?? outside ?? 'other JavaScript';
    partOfNode.set(id, result);
    return result;
  };
  const micros = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const part = resolve(samples[i]);
    // timeDeltas[i] is the time before sample i; the sample stands for the time up to the next one.
    const delta = timeDeltas[i + 1] ?? 0;
    micros.set(part, (micros.get(part) ?? 0) + delta);
  }
  micros.delete('idle');
  const rows = [...micros.entries()]
    .map(([part, us]) => ({ part, usPerRequest: us / requests }))
    .sort((a, b) => b.usPerRequest - a.usPerRequest);
  const total = rows.reduce((sum, row) => sum + row.usPerRequest, 0);
  return { rows, total };
}

/** A markdown table of several scenarios' costs side by side: a row per part, a column per scenario. */
export function hookCostTable(scenarios) {
  const parts = new Map();
  for (const { costs } of scenarios)
    for (const row of costs.rows) parts.set(row.part, (parts.get(row.part) ?? 0) + row.usPerRequest);
  const order = [...parts.entries()].sort((a, b) => b[1] - a[1]).map(([part]) => part);
  const lines = [
    `| part (µs of CPU per request) | ${scenarios.map((s) => s.title).join(' | ')} |`,
    `| --- | ${scenarios.map(() => '---:').join(' | ')} |`,
  ];
  for (const part of order) {
    const cells = scenarios.map((s) => s.costs.rows.find((r) => r.part === part)?.usPerRequest ?? 0);
    lines.push(`| ${part} | ${cells.map((us) => us.toFixed(1)).join(' | ')} |`);
  }
  lines.push(`| **all (CPU per request)** | ${scenarios.map((s) => `**${s.costs.total.toFixed(1)}**`).join(' | ')} |`);
  lines.push(`| requests profiled | ${scenarios.map((s) => s.requests).join(' | ')} |`);
  return lines.join('\n');
}
