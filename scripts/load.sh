#!/usr/bin/env bash
# `make load`: a reproducible load, soak and fault run against a release server on loopback.
#
# Phases (each prints req/s, p50/p95/p99 per kind, statuses, and the server's RSS before and
# after; any error outside the planned outage fails the run):
#   1. cold ask   — the first 60 answers after a fresh start, one at a time
#   2. warm ask   — the same 60 answers again
#   3. mixed      — searches and answers (1 in 4) at NYAYA_LOAD_CONCURRENCY for 60 s
#   4. soak       — the same mix for NYAYA_LOAD_SOAK_SECS (default 600)
#   5. outage     — the mix for 40 s with the embedded Postgres stopped from 15 s to 25 s:
#                   only 503s (fast) inside the window, recovery without a restart after it
#
# Env: NYAYA_LOAD_PORT (default 18080), NYAYA_LOAD_CONCURRENCY (8), NYAYA_LOAD_SOAK_SECS (600).
# The server runs with the per-client rate limit off (one client IP drives everything) and
# everything else at its defaults. Needs the embedded Postgres (the outage stops it).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PORT="${NYAYA_LOAD_PORT:-18080}"
CONC="${NYAYA_LOAD_CONCURRENCY:-8}"
SOAK="${NYAYA_LOAD_SOAK_SECS:-600}"
BIN=target/release/nyaya
URL="http://127.0.0.1:$PORT"
LOG=.cache/load-server.log

[[ -x "$BIN" ]] || { echo "load: build first (make build)" >&2; exit 2; }
mkdir -p .cache
NYAYA_RATE_LIMIT_PER_S=0 "$BIN" serve --addr "127.0.0.1:$PORT" >"$LOG" 2>&1 &
PID=$!
cleanup() {
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  bash scripts/pg.sh up >/dev/null 2>&1 || true
}
trap cleanup EXIT

for _ in $(seq 1 600); do
  curl -sf "$URL/readyz" >/dev/null && break
  kill -0 "$PID" 2>/dev/null || { echo "load: the server exited; see $LOG" >&2; exit 2; }
  sleep 0.5
done
curl -sf "$URL/readyz" >/dev/null || { echo "load: not ready after 300 s; see $LOG" >&2; exit 2; }
echo "server ready (pid $PID, RSS $(awk '/VmRSS/ {printf "%.0f MB", $2/1024}' /proc/$PID/status)); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores"

failed=0
phase() {
  "$BIN" load --url "$URL" --pid "$PID" "$@" || failed=1
}
phase --label "1. cold ask (first 60 answers after start)" --concurrency 1 --requests 60 --ask-share 1
phase --label "2. warm ask (the same 60 again)" --concurrency 1 --requests 60 --ask-share 1
phase --label "3. mixed, $CONC in flight, 60 s" --concurrency "$CONC" --seconds 60
phase --label "4. soak, $CONC in flight, $SOAK s" --concurrency "$CONC" --seconds "$SOAK"
phase --label "5. Postgres stopped 15-25 s, $CONC in flight, 40 s" --concurrency "$CONC" --seconds 40 --outage-at 15 --outage-seconds 10
if ((failed)); then
  echo "load: FAILED (see the verdicts above; server log $LOG)"
  exit 1
fi
echo "load: ok"
