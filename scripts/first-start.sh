#!/usr/bin/env bash
# `make first-start`: how long a release `nyaya serve` takes on an empty database — until
# `/readyz` says ready (corpus, chunk vectors, question bank), and until the background pass
# has embedded and loaded the clause spans — and what an answer costs during and after that
# pass.
# Uses a scratch database on the embedded Postgres (dropped at the end) and NYAYA_FIRST_PORT
# (default 18090).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

BIN=target/release/nyaya
PORT="${NYAYA_FIRST_PORT:-18090}"
URL="http://127.0.0.1:$PORT"
LOG=.cache/first-start.log
[[ -x "$BIN" ]] || { echo "first-start: build first (make build)" >&2; exit 2; }
BASE="$(bash scripts/pg.sh url)"
export PGOPTIONS="--client-min-messages=warning"
DB="${BASE%/*}/nyaya_first_start"
psql "$BASE" -qc "DROP DATABASE IF EXISTS nyaya_first_start" -c "CREATE DATABASE nyaya_first_start" >/dev/null || exit 2

now() { date +%s.%N; }
ask() {
  curl -s -o /dev/null -w "%{http_code} %{time_total}" -X POST "$URL/v1/ask" \
    -H 'content-type: application/json' -d '{"question": "What does Article 21 say?"}'
}
mkdir -p .cache
START=$(now)
DATABASE_URL="$DB" "$BIN" serve --addr "127.0.0.1:$PORT" >"$LOG" 2>&1 &
PID=$!
cleanup() {
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  psql "$BASE" -qc "DROP DATABASE IF EXISTS nyaya_first_start" >/dev/null 2>&1 || true
}
trap cleanup EXIT

until curl -sf "$URL/readyz" >/dev/null; do
  kill -0 "$PID" 2>/dev/null || { echo "first-start: the server exited; see $LOG" >&2; exit 2; }
  sleep 0.2
done
awk -v s="$START" -v e="$(now)" 'BEGIN { printf "ready (/readyz 200):            %.1f s\n", e - s }'
printf 'an answer during the span pass: %s s (status, seconds)\n' "$(ask)"
until grep -q "clause-span vectors embedded and loaded" "$LOG"; do
  kill -0 "$PID" 2>/dev/null || { echo "first-start: the server exited; see $LOG" >&2; exit 2; }
  sleep 0.5
done
awk -v s="$START" -v e="$(now)" 'BEGIN { printf "clause spans embedded, loaded:  %.1f s\n", e - s }'
printf 'an answer after the pass:       %s s (status, seconds)\n' "$(ask)"
