#!/usr/bin/env bash
# usage: bench_saturated.sh [tables] [seconds]
# Saturated throughput (issue 28): a fresh server (SQLite, no pause between hands or after a
# showdown, no per-connection message limit) and `stud load` with think 0 on the same machine,
# 8 bots a table, 10 s of warm-up, then the measured window. Prints one JSON line: frames
# delivered a second (the server's `stud_frames_total`), actions a second, the server's CPU
# (cores, from its /metrics), latency, errors.
# Defaults: 100 tables, 20 s. Needs ./target/release/stud; BIN=... for another build.
set -eu
cd "$(dirname "$0")/.."
tables=${1:-100}; dur=${2:-20}
bin=${BIN:-./target/release/stud}; port=${PORT:-18481}; out=${BENCH_OUT:-/tmp/bench-saturated}; mkdir -p "$out"
per=$(( (tables + 2) / 3 ))
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
rm -rf "$out"/stud.db*
STUD_HAND_PAUSE_MS=0 STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 STUD_MAX_CONNECTIONS_PER_IP=0 \
  STUD_STARTING_BALANCE=100000000 STUD_MESSAGES_PER_SECOND=0 \
  "$bin" serve --bind 127.0.0.1:$port --tables-per-variant $per --database-url "sqlite://$out/stud.db" \
  2>"$out/server.log" &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null || true' EXIT
up=0
for _ in $(seq 1 150); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && { up=1; break; }; sleep 0.2; done
[ "$up" = 1 ] || { echo "the server did not come up: $out/server.log" >&2; exit 1; }
"$bin" load --url ws://127.0.0.1:$port --tables "$tables" --players-per-table 8 --think-ms 0 \
  --warmup 10 --duration "$dur" > "$out/load.json"
python3 - "$out/load.json" "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(git rev-parse --short HEAD)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d.get("server")
if not s:
    sys.exit("the load run has no server figures (its /metrics could not be read)")
print(json.dumps({"machine": sys.argv[2], "commit": sys.argv[3], "frames_per_s": s["frames_per_s"],
                  "actions_per_s": d["actions_per_s"], "server_cpu_cores": s["cpu_cores"],
                  "latency_ms": d["latency_ms"], "errors": d["errors"], "disconnects": d["disconnects"]}))
PY
