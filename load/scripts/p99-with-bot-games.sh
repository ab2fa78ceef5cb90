#!/usr/bin/env bash
# p99-with-bot-games.sh DIR LABEL [GAMES] [LEVEL]: p99 of human rooms at 2,000 clicks/s
# (R = 1000, one node on SQLite) alone, then with GAMES (100) games against computer players of
# LEVEL (8) running at once on the same server, alternately twice (alone, bots, alone, bots).
# DIR holds release builds of orion-server and orion-load; every result line (JSON, with the
# bots' answer times) is appended to $OUT. The server is pinned to core 0 and the load to core
# 1, so the bot thread shares the rooms' core, the case that matters. The server is not run
# `chrt -f` here (as p99-one-and-two-nodes.sh does): its bot thread would inherit SCHED_FIFO and
# hold the core for a whole decision. With APART=1 the server may use both cores and is started
# with `--bot-cpus 1`: its bot thread thinks on core 1 (beside the load, which is SCHED_FIFO and
# goes first) and the rooms' runtime keeps core 0 to itself.
set -u
DIR=$1; LABEL=$2; GAMES=${3:-100}; LEVEL=${4:-8}; OUT=${OUT:-results.jsonl}
S=$DIR/orion-server; L=$DIR/orion-load
run() { # $1: bot games
    pkill -f 'orion-server --listen 127.0.0.1:7981'; sleep 0.5
    rm -f /tmp/benchbots.db*
    if [ "${APART:-0}" = 1 ]; then
        taskset -c 0,1 $S --listen 127.0.0.1:7981 --db /tmp/benchbots.db --log warn --max-bot-games $((GAMES + 10)) --bot-cpus 1 & P=$!
    else
        taskset -c 0 $S --listen 127.0.0.1:7981 --db /tmp/benchbots.db --log warn --max-bot-games $((GAMES + 10)) & P=$!
    fi
    sleep 1
    chrt -f 20 taskset -c 1 $L --server ws://127.0.0.1:7981/ws --rooms 1000 --rate 2000 --seconds 20 --warmup 5 \
        --bot-games $1 --bot-level $LEVEL --pid $P --label "$LABEL bots=$1" | tee -a $OUT
    kill $P; wait $P 2>/dev/null
}
run 0; run $GAMES; run 0; run $GAMES
