#!/usr/bin/env bash
# How long `npm start` takes to be ready: runs it in its own process group,
# waits for "rex is running", prints the wall time and the CPU time of every
# process of the group at that moment, then stops it as Ctrl+C would.
# Usage: bash scripts/time-to-ready.sh [runs]   (DATABASE_URL is ignored: the embedded PostgreSQL)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
ticks=$(getconf CLK_TCK)

for run in $(seq 1 "$runs"); do
  log=$(mktemp)
  started=$(date +%s%N)
  setsid env -u DATABASE_URL npm start >"$log" 2>&1 &
  group=$!
  until grep -q "rex is running" "$log"; do
    if ! kill -0 "$group" 2>/dev/null; then cat "$log"; exit 1; fi
    sleep 0.01
  done
  ready=$(date +%s%N)
  cpu=0
  for pid in $(ps -o pid= -g "$group"); do
    # utime, stime, cutime, cstime of /proc/<pid>/stat
    read -r u s cu cs < <(awk '{print $14, $15, $16, $17}' "/proc/$pid/stat" 2>/dev/null) || continue
    cpu=$((cpu + u + s + cu + cs))
  done
  printf 'run %s: ready in %.2f s, %.2f s of CPU, load %s\n' "$run" \
    "$(echo "($ready - $started) / 1000000000" | bc -l)" "$(echo "$cpu / $ticks" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
  kill -INT -- "-$group"
  wait "$group" || true
  rm -f "$log"
  sleep 2
done
