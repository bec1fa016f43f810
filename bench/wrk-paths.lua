-- wrk script of the bench: sends the requests of a file in turn, each thread starting at its own
-- offset (so distinct requests stay distinct across threads), and prints the summary as one JSON
-- line (latencies in microseconds) for bench/run.mjs.
--
-- A line is a path (GET, with the headers given on wrk's command line), or a write:
-- METHOD <tab> PATH <tab> API KEY <tab> JSON BODY, sent with a unique Idempotency-Key
-- (the run's prefix, the thread and a counter).
local requests = {}
local next_index = 0
local stride = 1
local prefix = "bench"

function setup(thread)
  thread:set("thread_id", setup_count or 0)
  setup_count = (setup_count or 0) + 1
end

function init(args)
  for line in io.lines(args[1]) do
    local method, path, key, body = line:match("^(%u+)\t([^\t]+)\t([^\t]*)\t(.*)$")
    if method then
      requests[#requests + 1] = { method = method, path = path, key = key, body = body }
    else
      requests[#requests + 1] = { path = line }
    end
  end
  stride = tonumber(args[2]) or 1
  prefix = (args[3] or "bench") .. "-" .. (thread_id or 0) .. "-"
  next_index = thread_id or 0
end

function request()
  local r = requests[(next_index % #requests) + 1]
  next_index = next_index + stride
  if not r.method then
    return wrk.format("GET", r.path)
  end
  local headers = {
    ["Content-Type"] = "application/json",
    ["X-API-Key"] = r.key,
    ["Idempotency-Key"] = prefix .. next_index,
  }
  return wrk.format(r.method, r.path, headers, r.body)
end

function done(summary, latency, requests_)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"status_errors":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
