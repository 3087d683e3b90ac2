#!/usr/bin/env bash
# usage: bench_tournament.sh [players] [sqlite|pg] [hands_per_level]
# A scheduled stud tournament of `players` bots (8 a table) played to the end as fast as the
# machine allows: no think time, no pause between hands or at showdown, no per-connection
# message limit (a bot with no think time acts more than 20 times a second heads-up), levels in
# hands (the stakes double each level). Prints the load tool's line and the server's "tournament ended"
# line (seat-hands, moves, hand-for-hand rounds and the slowest table's wait in it).
# Needs ./target/release/stud (cargo build --release -p stud-cli); for pg, PostgreSQL on
# 127.0.0.1:5432.
set -eu
cd "$(dirname "$0")/.."
players=${1:-1000}; kind=${2:-sqlite}; per_level=${3:-10}
port=18291
key=bench-tournament-operator-key-0123456789
if [ "$kind" = pg ]; then
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS stud_bench_t" -c "CREATE DATABASE stud_bench_t" >/dev/null
  url=postgres://postgres@127.0.0.1:5432/stud_bench_t
else
  rm -f /tmp/stud-bt.db*; url=sqlite:///tmp/stud-bt.db
fi
STUD_OPERATOR_KEY=$key STUD_MESSAGES_PER_SECOND=0 STUD_HAND_PAUSE_MS=0 STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 \
  STUD_MAX_CONNECTIONS_PER_IP=0 STUD_STARTING_BALANCE=100000 RUST_LOG=info,stud_server::table=warn \
  ./target/release/stud serve --bind 127.0.0.1:$port --tables-per-variant 1 --database-url $url 2>/tmp/bt-server.log &
srv=$!
trap 'kill $srv 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.2; done
levels=$(python3 -c "import json; print(json.dumps([{'ante': 5<<k, 'bring_in': 10<<k, 'small_bet': 20<<k, 'big_bet': 40<<k, 'hands': $per_level} for k in range(16)]))")
# Registration of every bot has to end before the start: a second per 25 bots, and 20 s more.
start_at=$(( $(date +%s%3N) + 20000 + players * 40 ))
body=$(printf '{"name": "Bench %s", "variant": "stud", "kind": "scheduled", "start_at": %s, "min_entrants": %s, "max_entrants": %s, "seats_per_table": 8, "entry_fee": 100, "house_fee": 10, "starting_chips": 2000, "levels": %s}' \
  "$players" "$start_at" "$players" "$players" "$levels")
id=$(curl -sf -X POST -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d "$body" http://127.0.0.1:$port/api/admin/tournaments | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
echo "tournament $id starts at $start_at ($players players)"
/usr/bin/time -f 'load tool: %e s wall, %U s user, %S s sys, %M KiB max RSS' \
  ./target/release/stud load --url ws://127.0.0.1:$port --tournament "$id" --players "$players" --think-ms 0
c=$(awk '{print ($14+$15)/100}' /proc/$srv/stat)
echo "server cpu: $c s"
grep -E 'tournament (started|ended)|next level' /tmp/bt-server.log | sed -e 's/\x1b\[[0-9;]*m//g' | grep -E 'started|ended' || true
grep -c 'next level' /tmp/bt-server.log || true
