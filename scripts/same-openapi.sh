#!/usr/bin/env bash
# `bash scripts/same-openapi.sh [BASE]` (BASE: a commit, default origin's main or HEAD~1): checks out BASE
# beside this checkout, prints the OpenAPI document of both sources (scripts/openapi-document.ts) and
# compares them byte for byte. Exit 0 when they are identical; otherwise the diff of the two
# documents, pretty-printed, and exit 1.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-HEAD~1}
work=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$here" worktree add --detach --quiet "$work/base" "$base"
# The base's source runs with this checkout's packages: a change of dependencies is not what this compares.
ln -s "$here/node_modules" "$work/base/node_modules"
# The project's own Node (the `node` package), as npm scripts run it.
export PATH="$here/node_modules/.bin:$PATH"
tsx=tsx
(cd "$here" && "$tsx" scripts/openapi-document.ts "$work/base") >"$work/before.json"
(cd "$here" && "$tsx" scripts/openapi-document.ts "$here") >"$work/after.json"
if cmp -s "$work/before.json" "$work/after.json"; then
  echo "openapi.json: identical to $base ($(wc -c <"$work/after.json") bytes)"
  exit 0
fi
echo "openapi.json differs from $base:"
diff <(node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0,"utf8")),null,1))' <"$work/before.json") \
     <(node -e 'process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0,"utf8")),null,1))' <"$work/after.json") | head -50
exit 1
