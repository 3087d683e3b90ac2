#!/usr/bin/env bash
# usage: bench_journal.sh pg|sqlite [tables] [duration]
# Needs ./target/release/stud (cargo build --release -p stud-cli) and, for pg, PostgreSQL on 127.0.0.1:5432.
# STUD_SHOWDOWN_PAUSE_MS=0: every hand waits the hand pause, as before the 4 s showdown pause.
set -u
cd "$(dirname "$0")/.."
kind=$1; tables=${2:-1000}; dur=${3:-30}
port=18281
if [ "$kind" = pg ]; then
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS stud_bench_j" -c "CREATE DATABASE stud_bench_j" >/dev/null
  url=postgres://postgres@127.0.0.1:5432/stud_bench_j
else
  rm -f /tmp/stud-bj.db*; url=sqlite:///tmp/stud-bj.db
fi
per=$(( (tables + 2) / 3 ))
STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 STUD_MAX_CONNECTIONS_PER_IP=0 STUD_STARTING_BALANCE=100000000 \
  ./target/release/stud serve --bind 127.0.0.1:$port --tables-per-variant $per --database-url $url 2>/tmp/bj-server.log &
srv=$!
for i in $(seq 1 100); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.2; done
./target/release/stud load --url ws://127.0.0.1:$port --tables $tables --players-per-table 8 \
  --duration $dur --warmup 25 --think-ms 1000 > /tmp/bj-load.json &
ld=$!
sleep 25
m0=$(curl -s http://127.0.0.1:$port/metrics | grep -E '^stud_journal_(appends|groups)_total|busy_seconds')
c0=$(awk '{print $14+$15}' /proc/$srv/stat); l0=$(awk '{print $14+$15}' /proc/$ld/stat)
pg0=$(for p in $(pgrep -x postgres); do awk '{s+=$14+$15} END {print s}' /proc/$p/stat 2>/dev/null; done | awk '{s+=$1} END {print s+0}')
sleep $dur
m1=$(curl -s http://127.0.0.1:$port/metrics | grep -E '^stud_journal_(appends|groups)_total|busy_seconds')
c1=$(awk '{print $14+$15}' /proc/$srv/stat); l1=$(awk '{print $14+$15}' /proc/$ld/stat)
pg1=$(for p in $(pgrep -x postgres); do awk '{s+=$14+$15} END {print s}' /proc/$p/stat 2>/dev/null; done | awk '{s+=$1} END {print s+0}')
wait $ld
echo "metrics start:"; echo "$m0"; echo "metrics end:"; echo "$m1"
echo "cpu cores server $(( (c1-c0) ))/${dur}00 load $(( (l1-l0) ))/${dur}00 postgres(approx, processes alive at both ends) $(( (pg1-pg0) ))/${dur}00"
cat /tmp/bj-load.json
curl -s http://127.0.0.1:$port/metrics | grep -E 'stud_journal_(group_size|commit_seconds|wait_seconds)_(bucket|count)|stud_action_seconds_(bucket|count)'
kill $srv; wait $srv
