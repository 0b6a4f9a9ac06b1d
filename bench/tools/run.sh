#!/bin/bash
# Run one of bench/tools' measures as the app runs its code: bundled by esbuild into bench/data/tools/ (under tsx
# every imported binding is a module getter, about 1.8x slower in hot loops), then run by node.
# Usage, from the repository root: bash bench/tools/run.sh digests|replay|snapshots|profile ARGS…
set -e
tool=$1
shift
mkdir -p bench/data/tools
npx esbuild "bench/tools/$tool.ts" --bundle --platform=node --format=esm --packages=external \
  --outfile="bench/data/tools/$tool.mjs" --log-level=warning
exec node "bench/data/tools/$tool.mjs" "$@"
