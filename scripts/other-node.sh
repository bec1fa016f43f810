#!/usr/bin/env bash
# Runs test suites on another Node.js major than the machine's own (default: 24), as .ci/run does.
#
#   scripts/other-node.sh                      Node 24: the HTTP, MCP, access and server suites, both engines
#   scripts/other-node.sh 22 test/server       Node 22: the files or folders named, both engines
#
# Node comes from the npm registry (the `node` package, which installs the official binary for
# this platform with its headers as `node-<os>-<arch>`): nothing is downloaded from elsewhere. The
# project is copied (its tracked files, as they are in the working tree) to a folder of its own
# and installed there with that Node, so better-sqlite3 is compiled against its ABI while the
# checkout's node_modules stays built for the machine's Node. Cached under
# ${XDG_CACHE_HOME:-~/.cache}/karlsruhe-marketplace-api/node<major>; delete that folder to start over.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
major="${1:-24}"
shift || true
suites=("$@")
[ "${#suites[@]}" -gt 0 ] || suites=(test/http test/mcp test/access test/server)

cache="${XDG_CACHE_HOME:-$HOME/.cache}/karlsruhe-marketplace-api/node$major"
runtime="$cache/runtime"
project="$cache/project"
mkdir -p "$runtime"

echo "== Node $major from the npm registry"
# --no-save: the runtime folder has no package.json of its own worth keeping.
npm install --prefix "$runtime" --no-audit --no-fund --no-save --loglevel=error "node@$major" >/dev/null
bin="$runtime/node_modules/node/bin"
headers="$(dirname "$(dirname "$(dirname "$(ls "$runtime"/node_modules/node/node_modules/node-*/include/node/node.h 2>/dev/null | head -n 1)")")")"
[ -x "$bin/node" ] && [ -f "$headers/include/node/node.h" ] ||
  { echo "other-node: the node@$major package did not install a binary with headers under $runtime" >&2; exit 1; }
export PATH="$bin:$PATH"
echo "node $(node --version) at $bin"
[ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ] ||
  { echo "other-node: expected Node $major first on PATH, got $(node --version)" >&2; exit 1; }

echo "== the project, installed with Node $major (better-sqlite3 compiled against its headers)"
rm -rf "$project"
mkdir -p "$project"
git -C "$root" ls-files -z --cached --others --exclude-standard |
  (cd "$root" && tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$project"
cd "$project"
npm_config_nodedir="$headers" npm install --no-audit --no-fund --loglevel=error
node -e 'const db = new (require("better-sqlite3"))(":memory:"); console.log("better-sqlite3 loads on Node " + process.versions.node + ", SQLite " + db.prepare("select sqlite_version() v").get().v)'

echo "== tests on Node $major: ${suites[*]}"
mapfile -t files < <(find "${suites[@]}" -name '*.test.ts' | sort)
npm test -- "${files[@]}"
