-- wrk script of the bench: sends the paths of a file (one per line) in turn, each thread starting
-- at its own offset (so distinct paths stay distinct across threads), and prints the summary as one
-- JSON line (latencies in microseconds) for bench/run.mjs.
local paths = {}
local next_index = 0
local stride = 1

function setup(thread)
  thread:set("thread_id", setup_count or 0)
  setup_count = (setup_count or 0) + 1
end

function init(args)
  for line in io.lines(args[1]) do
    paths[#paths + 1] = line
  end
  stride = tonumber(args[2]) or 1
  next_index = thread_id or 0
end

function request()
  local path = paths[(next_index % #paths) + 1]
  next_index = next_index + stride
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"bytes":%d,"status_errors":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
