#!/usr/bin/env bash
# Runs test suites on another Node.js major than the machine's own (default: 24), as .ci/run does.
#
#   scripts/other-node.sh                      Node 24: the whole suite (npm test), both engines
#   scripts/other-node.sh 22 test/server       Node 22: the files or folders named, both engines
#   OTHER_NODE_STEP=install scripts/other-node.sh 24   only install (Node and the project's copy)
#   OTHER_NODE_STEP=test scripts/other-node.sh 24      only test, in the copy an install step left
#
# Node comes from the npm registry (the `node` package, which installs the official binary for
# this platform with its headers as `node-<os>-<arch>`): nothing is downloaded from elsewhere. The
# project is copied (its tracked files, as they are in the working tree) to a folder of its own
# and installed there with that Node, so the SQLite driver fits its ABI while the checkout's
# node_modules stays built for the machine's Node. Cached under
# ${XDG_CACHE_HOME:-~/.cache}/karlsruhe-marketplace-api/node<major>; delete that folder to start over.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
major="${1:-24}"
shift || true
suites=("$@")
step="${OTHER_NODE_STEP:-all}"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/karlsruhe-marketplace-api/node$major"
runtime="$cache/runtime"
project="$cache/project"
mkdir -p "$runtime"

if [ "$step" != "test" ]; then
echo "== Node $major from the npm registry"
# --no-save: the runtime folder has no package.json of its own worth keeping.
npm install --prefix "$runtime" --no-audit --no-fund --no-save --loglevel=error "node@$major" >/dev/null
bin="$runtime/node_modules/node/bin"
headers="$(dirname "$(dirname "$(dirname "$(ls "$runtime"/node_modules/node/node_modules/node-*/include/node/node.h 2>/dev/null | head -n 1)")")")"
[ -x "$bin/node" ] && [ -f "$headers/include/node/node.h" ] ||
  { echo "other-node: the node@$major package did not install a binary with headers under $runtime" >&2; exit 1; }
fi
bin="$runtime/node_modules/node/bin"
export PATH="$bin:$PATH"
echo "node $(node --version) at $bin"
[ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ] ||
  { echo "other-node: expected Node $major first on PATH, got $(node --version)" >&2; exit 1; }

if [ "$step" != "test" ]; then
echo "== the project, installed with Node $major"
rm -rf "$project"
mkdir -p "$project"
git -C "$root" ls-files -z --cached --others --exclude-standard |
  (cd "$root" && tar --null --files-from=- --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$project"
cd "$project"
if [ "$major" -ge 22 ]; then
  # From Node 22 on the service loads better-sqlite3 13 (better-sqlite3-napi: Node-API, prebuilt in
  # its package, no install script), never 12 (src/db/sqlite-driver.ts): 12's compile is skipped
  # with every other install script (esbuild's is a check of the binary its platform package holds).
  npm install --no-audit --no-fund --loglevel=error --ignore-scripts
  driver=better-sqlite3-napi
else
  # better-sqlite3 12 compiled against this Node's headers.
  npm_config_nodedir="$headers" npm install --no-audit --no-fund --loglevel=error
  driver=better-sqlite3
fi
node -e 'const db = new (require(process.argv[1]))(":memory:"); console.log(process.argv[1] + " loads on Node " + process.versions.node + ", SQLite " + db.prepare("select sqlite_version() v").get().v)' "$driver"
# dist/, which the tests' server and command processes start from, built here too: in CI this step
# runs in the background beside the type check, on the other core, instead of in the test phase.
node scripts/build.mjs --ignore-type-errors

fi
[ "$step" != "install" ] || exit 0

cd "$project"
if [ "${#suites[@]}" -eq 0 ]; then
  echo "== the whole suite on Node $major"
  npm test
else
  echo "== tests on Node $major: ${suites[*]}"
  npm test -- "${suites[@]}"
fi
