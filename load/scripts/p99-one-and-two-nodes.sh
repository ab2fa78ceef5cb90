#!/usr/bin/env bash
# p99-one-and-two-nodes.sh DIR LABEL: p99 at 2,000 clicks/s (R = 1000), one node on SQLite,
# then two nodes on PostgreSQL + NATS (500 rooms each). DIR holds release builds of
# orion-server and orion-load. PostgreSQL (as the postgres user) and nats-server are started
# here on loopback (on ports below the ephemeral range, which 4,000 clients fill) and stopped after; every line of results is appended to $OUT as JSON.
set -u
DIR=$1; LABEL=$2; OUT=${OUT:-results.jsonl}
S=$DIR/orion-server; L=$DIR/orion-load
pkill -f 'orion-server --listen 127.0.0.1:79' ; sleep 0.5
# one node, SQLite
rm -f /tmp/bench1.db*
chrt -f 20 taskset -c 0 $S --listen 127.0.0.1:7971 --db /tmp/bench1.db --log warn & P=$!
sleep 1
chrt -f 20 taskset -c 1 $L --server ws://127.0.0.1:7971/ws --rooms 1000 --rate 2000 --seconds 15 --warmup 2 --pid $P --label "$LABEL one-node" | tee -a $OUT
kill $P; wait $P 2>/dev/null
# two nodes
PGB=$(ls -d /usr/lib/postgresql/*/bin | head -1)
D=/tmp/benchpg; rm -rf $D; mkdir -p $D; chown postgres $D
su postgres -c "$PGB/initdb -U postgres --auth=trust --no-sync -E UTF8 -D $D/data" >/dev/null
su postgres -c "$PGB/pg_ctl -D $D/data -o '-p 15439 -k $D -c listen_addresses=127.0.0.1' -l $D/log start -w" >/dev/null
su postgres -c "$PGB/createdb -h 127.0.0.1 -p 15439 -U postgres two"
nats-server -a 127.0.0.1 -p 14229 >/dev/null 2>&1 & N=$!
sleep 1
URL=postgres://postgres@127.0.0.1:15439/two
chrt -f 20 taskset -c 0 $S --listen 127.0.0.1:7972 --store $URL --bus nats://127.0.0.1:14229 --node a --log warn & A=$!
chrt -f 20 taskset -c 1 $S --listen 127.0.0.1:7973 --store $URL --bus nats://127.0.0.1:14229 --node b --log warn & B=$!
sleep 3
$L --server ws://127.0.0.1:7972/ws --rooms 500 --rate 1000 --seconds 15 --warmup 2 --pid $A --label "$LABEL two-node a" | tee -a $OUT &
$L --server ws://127.0.0.1:7973/ws --rooms 500 --rate 1000 --seconds 15 --warmup 2 --pid $B --label "$LABEL two-node b" | tee -a $OUT
wait %4 2>/dev/null; sleep 2
kill $A $B $N; wait $A $B $N 2>/dev/null
su postgres -c "$PGB/pg_ctl -D $D/data stop -m fast" >/dev/null
