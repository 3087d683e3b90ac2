#!/usr/bin/env bash
# kill -9 with 1000 tables x 8 bots on Postgres; measures restart and the bots' resume gap.
# Needs ./target/release/stud (cargo build --release -p stud-cli; BIN=... for another build) and
# PostgreSQL on 127.0.0.1:5432. LOAD_BIN=... runs the bots with another build's `stud load`.
# STUD_SHOWDOWN_PAUSE_MS=0: every hand waits the hand pause, as before the 4 s showdown pause.
set -u
cd "$(dirname "$0")/.."
port=18282
bin=${BIN:-./target/release/stud}
load_bin=${LOAD_BIN:-$bin}
psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS stud_bench_k" -c "CREATE DATABASE stud_bench_k" >/dev/null
url=postgres://postgres@127.0.0.1:5432/stud_bench_k
serve() { STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 STUD_MAX_CONNECTIONS_PER_IP=0 STUD_STARTING_BALANCE=100000000 \
  "$bin" serve --bind 127.0.0.1:$port --tables-per-variant 334 --database-url $url 2>>/tmp/bk-server.log & }
: > /tmp/bk-server.log
serve; srv=$!
for i in $(seq 1 100); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.2; done
"$load_bin" load --url ws://127.0.0.1:$port --tables 1000 --players-per-table 8 \
  --duration 45 --warmup 5 --think-ms 1000 --reconnect > /tmp/bk-load.json &
ld=$!
sleep 25
t0=$(date +%s.%N); kill -9 $srv; serve; srv=$!
until curl -sf http://127.0.0.1:$port/healthz >/dev/null; do sleep 0.02; done
t1=$(date +%s.%N)
echo "kill -9 to healthz: $(echo "$t1 - $t0" | bc) s"
wait $ld
grep -E "rebuilt|read ahead" /tmp/bk-server.log | tail -2
cat /tmp/bk-load.json
kill $srv; wait $srv
