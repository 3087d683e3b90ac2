#!/usr/bin/env bash
# usage: bench_memory.sh [players] [idle sockets] [seconds]
# The server's memory, from its own /metrics (read by `stud load`, see its "server" field):
#  1. a fresh server with players/8 tables: RSS with no client, then with N idle sockets
#     (guest session, hello, nothing else), held for the measured window;
#  2. a second fresh server: P bots seated and playing (think 1 s), its RSS at the end and its
#     peak (VmHWM, the whole life of the process: start, logins, sitting, play).
# Defaults: 10,000 players, 15,000 idle sockets, 30 s. Prints one JSON line per phase.
# Needs ./target/release/stud (cargo build --release -p stud-cli); BIN=... for another build.
set -eu
cd "$(dirname "$0")/.."
players=${1:-10000}; idle=${2:-15000}; dur=${3:-30}
bin=${BIN:-./target/release/stud}; port=${PORT:-18381}; out=${BENCH_OUT:-/tmp/bench-memory}; mkdir -p "$out"
tables=$(( (players + 7) / 8 )); per=$(( (tables + 2) / 3 ))
ulimit -n 20000 2>/dev/null || ulimit -n "$(ulimit -Hn)"
serve() {
  rm -rf "$out"/stud.db*
  STUD_SHOWDOWN_PAUSE_MS=0 STUD_SESSIONS_PER_MINUTE_PER_IP=0 STUD_MAX_CONNECTIONS_PER_IP=0 \
    STUD_STARTING_BALANCE=100000000 STUD_MESSAGES_PER_SECOND=0 \
    "$bin" serve --bind 127.0.0.1:$port --tables-per-variant $per --database-url "sqlite://$out/stud.db" \
    2>"$out/server-$1.log" &
  srv=$!
  for _ in $(seq 1 150); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.2; done
}
rss() { curl -s http://127.0.0.1:$port/metrics | awk -v k="$1" '$1 == k {printf "%.1f", $2 / 1e6}'; }
echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $tables tables; $(git rev-parse --short HEAD)"
if [ "$idle" -gt 0 ]; then
  serve idle
  base=$(rss process_resident_memory_bytes)
  warm=$(( idle / 400 + 15 ))
  "$bin" load --url ws://127.0.0.1:$port --tables 0 --idle "$idle" --warmup "$warm" --duration 10 > "$out/idle.json"
  kill $srv; wait $srv || true
  python3 - "$out/idle.json" "$base" "$idle" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); base = float(sys.argv[2]); n = int(sys.argv[3]); s = d["server"]
print(json.dumps({"phase": "idle", "sockets": d["idle_sockets"], "asked": n, "rss_mb_no_client": base,
                  "rss_mb": s["rss_mb"], "kb_per_socket": round((s["rss_mb"] - base) * 1000 / max(d["idle_sockets"], 1), 2),
                  "peak_rss_mb": s["peak_rss_mb"], "cpu_cores": s["cpu_cores"]}))
PY
fi
if [ "$players" -gt 0 ]; then
  serve play
  base=$(rss process_resident_memory_bytes)
  warm=$(( players / 300 + 20 ))
  "$bin" load --url ws://127.0.0.1:$port --tables "$tables" --players-per-table 8 --think-ms 1000 \
    --warmup "$warm" --duration "$dur" > "$out/play.json"
  kill $srv; wait $srv || true
  python3 - "$out/play.json" "$base" "$players" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); base = float(sys.argv[2]); n = int(sys.argv[3]); s = d["server"]
print(json.dumps({"phase": "play", "players": n, "rss_mb_no_client": base, "rss_mb": s["rss_mb"],
                  "rss_max_mb": s["rss_max_mb"], "peak_rss_mb": s["peak_rss_mb"],
                  "kb_per_player_peak": round(s["peak_rss_mb"] * 1000 / n, 2), "cpu_cores": s["cpu_cores"],
                  "frames_per_s": s["frames_per_s"], "actions_per_s": d["actions_per_s"],
                  "latency_ms": d["latency_ms"], "errors": d["errors"], "disconnects": d["disconnects"]}))
PY
fi
