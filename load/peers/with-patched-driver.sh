#!/usr/bin/env bash
# Runs the peers' harness (../shared/bench/peers, installed as its README says) with its Orion
# driver patched by orion-driver-keeps-no-turn-events.patch: the stock driver keeps every
# message of a live game that is not a click (each `turn` event, four per click) in an array
# nothing reads, so its heap grows ~1.5 MB/s at 2,000 clicks/s and its old-generation
# collections (every ~2 s, 10-25 ms each with the scavenge before) stall every click in
# flight. BENCHMARKS.md (eighth round) shows the stalls lined up with the driver's GC trace.
# The copy lives in a temporary directory (the harness itself is not changed); the floor and
# Colyseus are run with the stock harness. Usage, from the project root, as run.sh:
#   load/peers/with-patched-driver.sh orion 1000 1
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
PEERS=${PEERS:-$HERE/../../../shared/bench/peers}
COPY=$(mktemp -d)
trap 'rm -rf "$COPY"' EXIT
cp "$PEERS/run.sh" "$COPY/"
cp -r "$PEERS/common" "$COPY/"
mkdir "$COPY/orion"
cp "$PEERS/orion/driver.js" "$COPY/orion/"
ln -s "$(cd "$PEERS/orion/node_modules" && pwd)" "$COPY/orion/node_modules"
patch -s -d "$COPY" -p1 < "$HERE/orion-driver-keeps-no-turn-events.patch"
"$COPY/run.sh" "$@"
