#!/usr/bin/env bash
# usage: bench_cluster.sh single|cluster [tables] [duration] [kill]
#   single:  one `stud serve` process on Postgres (the reference)
#   cluster: nats-server -js, 2 workers and 2 gateways on the same Postgres; the bots of a table
#            are spread over both gateways
#   kill:    (cluster) kill -9 worker w1 30 s in; prints when w2 had taken its tables over
# 8 bots per table, think 1000 ms, warm-up 25 s, then `duration` seconds measured.
# NATS_CONF=deploy/nats-server.conf runs nats-server with that file (sync_interval: always);
# without it, NATS's defaults (fsync every 2 minutes). SPY=1 also counts NATS's messages by
# subject over the measured window (scripts/nats_subjects.py; needs nats-py), per action.
# Needs ./target/release/stud (cargo build --release -p stud-cli; or BIN=...), PostgreSQL on
# 127.0.0.1:5432 and, for cluster, nats-server 2.10+ (STUD_NATS_SERVER, or the venv .ci/run makes).
set -u
cd "$(dirname "$0")/.."
mode=$1; tables=${2:-1000}; dur=${3:-30}; kill=${4:-}
bin=${BIN:-./target/release/stud}
nats=${STUD_NATS_SERVER:-./target/nats-venv/bin/nats-server}
tmp=$(mktemp -d /tmp/bench-cluster.XXXXXX)
db=stud_bench_c
psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
url=postgres://postgres@127.0.0.1:5432/$db
per=$(( (tables + 2) / 3 ))
export STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 STUD_MAX_CONNECTIONS_PER_IP=0 STUD_STARTING_BALANCE=100000000
pids=()
nats_pid=
# The nodes first (a worker flushes to NATS as it stops), then NATS.
cleanup() {
  kill "${pids[@]}" 2>/dev/null
  for _ in $(seq 1 50); do kill -0 "${pids[@]}" 2>/dev/null || break; sleep 0.2; done
  kill -9 "${pids[@]}" 2>/dev/null
  [ -n "$nats_pid" ] && kill "$nats_pid" 2>/dev/null
  wait 2>/dev/null
}
trap cleanup EXIT
if [ "$mode" = single ]; then
  $bin serve --bind 127.0.0.1:18291 --tables-per-variant $per --database-url $url 2>"$tmp/s1.log" & pids+=($!)
  gateways=(18291)
else
  $nats ${NATS_CONF:+-c "$NATS_CONF"} -js -p 14222 -m 18222 -sd "$tmp/nats" >"$tmp/nats.log" 2>&1 & nats_pid=$!
  sleep 1
  node() { $bin serve --bind "127.0.0.1:$3" --database-url $url --cluster nats://127.0.0.1:14222 \
    --role "$1" --node "$2" --tables-per-variant $per 2>"$tmp/$2.log" & pids+=($!); }
  node worker w1 0; w1=$!
  node worker w2 0
  # One gateway after the other (as the measured runs did).
  node gateway g1 18291
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:18291/healthz" >/dev/null && break; sleep 0.2; done
  node gateway g2 18292
  gateways=(18291 18292)
fi
for g in "${gateways[@]}"; do
  for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$g/healthz" >/dev/null && break; sleep 0.2; done
done
if [ "$mode" != single ]; then
  # Every table claimed, and the workers settled (no table hosted anew for 5 s), before the
  # bots come.
  last=-1; still=0
  for _ in $(seq 1 600); do
    n=$(cat "$tmp"/w1.log "$tmp"/w2.log | grep -c "hosting table")
    if [ "$n" -ge "$tables" ] && [ "$n" -eq "$last" ]; then still=$((still + 1)); else still=0; fi
    [ "$still" -ge 25 ] && break
    last=$n; sleep 0.2
  done
  echo "gave back at start: $(cat "$tmp"/w1.log "$tmp"/w2.log | grep -c 'giving it back')"
  echo "tables hosted: w1 $(grep -c 'hosting table' "$tmp/w1.log"), w2 $(grep -c 'hosting table' "$tmp/w2.log")"
fi
urls=$(printf 'ws://127.0.0.1:%s,' "${gateways[@]}"); urls=${urls%,}
$bin load --url "$urls" --tables "$tables" --players-per-table 8 --duration "$dur" --warmup 25 --think-ms 1000 \
  ${kill:+--reconnect} >"$tmp/load.json" &
ld=$!
cpu() { for p in "$@"; do awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0; done | awk '{s+=$1} END {print s+0}'; }
pg() { cpu $(pgrep -x postgres); }
# NATS messages in and out (cluster: the server's monitoring port), and Postgres transactions.
varz() { curl -s http://127.0.0.1:18222/varz 2>/dev/null | python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["in_msgs"], v["out_msgs"], v["in_bytes"], v["out_bytes"])' 2>/dev/null || echo 0 0 0 0; }
xacts() { psql -h 127.0.0.1 -U postgres -d test -Atc "SELECT xact_commit FROM pg_stat_database WHERE datname = '$db'"; }
sleep 25
c0=$(cpu "${pids[@]}"); l0=$(cpu $ld); p0=$(pg); n0=$(varz); x0=$(xacts)
each0=(); for p in "${pids[@]}" $nats_pid; do each0+=("$(cpu "$p")"); done
if [ -n "${SPY:-}" ] && [ "$mode" != single ]; then
  ${PYTHON:-python3} scripts/nats_subjects.py nats://127.0.0.1:14222 "$dur" >"$tmp/subjects.txt" 2>&1 &
fi
if [ -n "$kill" ]; then
  sleep 5
  t0=$(date -u +%s.%N)
  kill -9 "$w1"
  echo "kill -9 w1 at $(date -u -d @"$t0" +%H:%M:%S.%N)"
  sleep $(( dur - 5 ))
else
  sleep "$dur"
fi
c1=$(cpu "${pids[@]}"); l1=$(cpu $ld); p1=$(pg); n1=$(varz); x1=$(xacts)
i=0; for p in "${pids[@]}" $nats_pid; do
  name=$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -oE -- '--node [a-z0-9]+|nats-server' || echo "pid $p")
  echo "cpu (cores) of ${name:-serve}: $(echo "scale=2; ($(cpu "$p")-${each0[$i]})/100/$dur" | bc)"; i=$((i + 1))
done
wait $ld
if [ "$mode" != single ]; then
  read -r i0 o0 ib0 ob0 <<<"$n0"; read -r i1 o1 ib1 ob1 <<<"$n1"
  echo "nats per second over the measured window: messages in $(( (i1 - i0) / dur )), out $(( (o1 - o0) / dur )), bytes in $(( (ib1 - ib0) / dur )), out $(( (ob1 - ob0) / dur ))"
fi
echo "postgres commits per second over the measured window: $(( (x1 - x0) / dur ))"
echo "cpu (cores) over the measured window: servers $(echo "scale=2; ($c1-$c0)/100/$dur" | bc)" \
  "load $(echo "scale=2; ($l1-$l0)/100/$dur" | bc) postgres $(echo "scale=2; ($p1-$p0)/100/$dur" | bc)"
cat "$tmp/load.json"
if [ -s "$tmp/subjects.txt" ]; then
  actions=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["actions_per_s"])' "$tmp/load.json")
  echo "NATS messages by subject over the measured window (per action: / $actions actions/s):"
  awk -v a="$actions" 'NR == 1 { print; next } { printf "%s  %.2f/action\n", $0, $2 / a }' "$tmp/subjects.txt"
fi
if [ -n "$kill" ]; then
  # When w2 rebuilt w1's tables: its `resumed=true` hosting lines, against the kill.
  sed 's/\x1b\[[0-9;]*m//g' "$tmp/w2.log" | grep "hosting table" | grep "resumed=true" | awk '{print $1}' |
    while read -r at; do echo "$(date -u -d "$at" +%s.%N) - $t0" | bc; done | sort -n >"$tmp/taken.txt"
  echo "tables w2 took over: $(wc -l <"$tmp/taken.txt"); first $(head -1 "$tmp/taken.txt") s, last $(tail -1 "$tmp/taken.txt") s after the kill"
fi
for g in "${gateways[@]}"; do
  curl -s "http://127.0.0.1:$g/metrics" | grep -E '^stud_(frames|actions|hands)_total' | sed "s/^/gateway $g: /"
done
echo "logs: $tmp"
