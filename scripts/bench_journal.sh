#!/usr/bin/env bash
# usage: bench_journal.sh pg|sqlite [tables] [duration]
# Measures the storage floor, then the server on the same disk in the same run, and prints both
# side by side with the journal's histograms over the measured window (scripts/journal_report.py).
# Needs ./target/release/stud (cargo build --release -p stud-cli) and, for pg, PostgreSQL on
# 127.0.0.1:5432 and pgbench.
# STUD_SHOWDOWN_PAUSE_MS=0: every hand waits the hand pause, as before the 4 s showdown pause.
# BIN=... runs another build; WARMUP=... seconds before the window (25; the bots sit down 32 at a
# time: 2,000 tables need about 45).
set -u
cd "$(dirname "$0")/.."
kind=$1; tables=${2:-1000}; dur=${3:-30}
bin=${BIN:-./target/release/stud}; warm=${WARMUP:-25}; port=18281; out=${BENCH_OUT:-/tmp/bench-journal}; mkdir -p "$out"
if [ "$kind" = pg ]; then
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS stud_bench_j" -c "CREATE DATABASE stud_bench_j" >/dev/null
  url=postgres://postgres@127.0.0.1:5432/stud_bench_j
  python3 scripts/journal_floor.py pg "$url" --rate 1000 --clients 2 --seconds 20 > "$out/floor.json"
else
  rm -rf /tmp/stud-bj.db*; url=sqlite:///tmp/stud-bj.db
  python3 scripts/journal_floor.py fsync /tmp --rate 1000 --size 4096 --seconds 20 > "$out/floor.json"
  # The journal writes into segments made ahead, zero-filled (journal::file): their floor too.
  python3 scripts/journal_floor.py fsync /tmp --rate 1000 --size 4096 --seconds 20 --preallocated > "$out/floor-pre.json"
fi
per=$(( (tables + 2) / 3 ))
STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 STUD_MAX_CONNECTIONS_PER_IP=0 STUD_STARTING_BALANCE=100000000 \
  "$bin" serve --bind 127.0.0.1:$port --tables-per-variant $per --database-url $url 2>"$out/server.log" &
srv=$!
for i in $(seq 1 100); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.2; done
"$bin" load --url ws://127.0.0.1:$port --tables $tables --players-per-table 8 \
  --duration $dur --warmup $warm --think-ms 1000 > "$out/load.json" &
ld=$!
sleep "$warm"
curl -s http://127.0.0.1:$port/metrics > "$out/metrics0.txt"
c0=$(awk '{print $14+$15}' /proc/$srv/stat); l0=$(awk '{print $14+$15}' /proc/$ld/stat)
sleep "$dur"
curl -s http://127.0.0.1:$port/metrics > "$out/metrics1.txt"
c1=$(awk '{print $14+$15}' /proc/$srv/stat); l1=$(awk '{print $14+$15}' /proc/$ld/stat)
wait $ld
kill $srv; wait $srv
echo "$kind, $tables tables x 8 bots, think 1 s, ${dur} s measured; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
python3 scripts/journal_report.py "$out/floor.json" "$out/load.json" "$out/metrics0.txt" "$out/metrics1.txt"
[ "$kind" = pg ] || python3 -c 'import json,sys; f=json.load(open(sys.argv[1])); print("floor   %s: p50 %s ms, p99 %s ms, max %s ms" % (f["floor"], f["p50_ms"], f["p99_ms"], f["max_ms"]))' "$out/floor-pre.json"
echo "cpu (cores): server $(awk "BEGIN {print ($c1-$c0)/100/$dur}") load $(awk "BEGIN {print ($l1-$l0)/100/$dur}")"
