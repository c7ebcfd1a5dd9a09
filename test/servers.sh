#!/usr/bin/env bash
# Throwaway ClickHouse (Debian's 18.16) and PostgreSQL 15 servers for tests,
# plus the modern-engine front (test/chdb/front.py: ClickHouse 26.5 as chDB
# behind a small HTTP front -- a test harness, NOT a ClickHouse server).
#
#   bash test/servers.sh start    start all three (idempotent)
#   bash test/servers.sh stop     stop them (only what this script started)
#   bash test/servers.sh status   exit 0 if all are up, 1 otherwise
#   bash test/servers.sh env      print export lines:  eval "$(bash test/servers.sh env)"
#
# All state lives in <repo>/.state/ (gitignored):
#   .state/ports                     chosen ports (reused by stop/status/env)
#   .state/clickhouse.pid            ClickHouse server PID
#   .state/clickhouse/{etc,data,log} ClickHouse config (regenerated on every
#                                    start from /etc/clickhouse-server), data, logs
#   .state/pg/data                   PostgreSQL cluster (owned by OS user postgres when run as root)
#   .state/pg/log/postgresql.log     PostgreSQL log
#   .state/pg/.s.PGSQL.<port>        PostgreSQL unix socket (PGHOST=<repo>/.state/pg)
#   .state/chdb/                     chDB library (test/chdb/install.sh, fetched once)
#   .state/chdb-front.pid            front PID
#   .state/chdb-front/{data,tmp}     front's chDB data and INSERT temp files
#   .state/chdb-front/front.log      front's log (one line per request)
#
# Ports (defaults 18123 / 19000 / 15432 / 18124) can be chosen with the env vars
# CH_HTTP_PORT, CH_TCP_PORT, PGPORT, CH_MODERN_PORT set before `start` (while
# nothing runs; CH_MODERN_PORT also while only the front is down).
# Users: ClickHouse `default` (no password) and `tester` / `tester_pw`;
# PostgreSQL `postgres`, trust auth.
set -euo pipefail
umask 022

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$SCRIPT_DIR/.." && pwd -P)
STATE="$REPO/.state"
PORTS_FILE="$STATE/ports"

CH_DIR="$STATE/clickhouse"
CH_ETC="$CH_DIR/etc"
CH_DATA="$CH_DIR/data"
CH_LOGDIR="$CH_DIR/log"
CH_PIDFILE="$STATE/clickhouse.pid"
CH_SRC_ETC=/etc/clickhouse-server

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PG_BIN=$("$PG_CONFIG" --bindir)
PG_DIR="$STATE/pg"
PG_DATA="$PG_DIR/data"
PG_LOGDIR="$PG_DIR/log"
PG_LOG="$PG_LOGDIR/postgresql.log"
PG_CONF_NAME=clickhouse_fdw_test.conf

FRONT_DIR="$STATE/chdb-front"
FRONT_PIDFILE="$STATE/chdb-front.pid"
FRONT_LOG="$FRONT_DIR/front.log"
FRONT_PY="$REPO/test/chdb/front.py"

START_TIMEOUT=${START_TIMEOUT:-60}

DEFAULT_CH_HTTP_PORT=18123
DEFAULT_CH_TCP_PORT=19000
DEFAULT_PGPORT=15432
DEFAULT_CH_MODERN_PORT=18124

is_root() { [[ $(id -u) -eq 0 ]]; }
die() { echo "servers.sh: $*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# ---------------------------------------------------------------- ports

# Sets P_CH_HTTP P_CH_TCP P_PG P_FRONT from .state/ports, else defaults.
load_ports() {
  P_CH_HTTP=$DEFAULT_CH_HTTP_PORT
  P_CH_TCP=$DEFAULT_CH_TCP_PORT
  P_PG=$DEFAULT_PGPORT
  P_FRONT=$DEFAULT_CH_MODERN_PORT
  if [[ -f "$PORTS_FILE" ]]; then
    local k v
    while IFS='=' read -r k v; do
      [[ "$v" =~ ^[0-9]+$ ]] || continue
      case "$k" in
        CH_HTTP_PORT) P_CH_HTTP=$v ;;
        CH_TCP_PORT) P_CH_TCP=$v ;;
        PGPORT) P_PG=$v ;;
        CH_MODERN_PORT) P_FRONT=$v ;;
      esac
    done <"$PORTS_FILE"
  fi
}

# For `start` when nothing runs: env vars override the persisted values.
choose_ports() {
  load_ports
  P_CH_HTTP=${CH_HTTP_PORT:-$P_CH_HTTP}
  P_CH_TCP=${CH_TCP_PORT:-$P_CH_TCP}
  P_PG=${PGPORT:-$P_PG}
  P_FRONT=${CH_MODERN_PORT:-$P_FRONT}
  local p
  for p in "$P_CH_HTTP" "$P_CH_TCP" "$P_PG" "$P_FRONT"; do
    if ! [[ "$p" =~ ^[0-9]+$ ]] || ((p < 1 || p > 65535)); then die "invalid port '$p'"; fi
  done
  save_ports
}

save_ports() {
  printf 'CH_HTTP_PORT=%s\nCH_TCP_PORT=%s\nPGPORT=%s\nCH_MODERN_PORT=%s\n' \
    "$P_CH_HTTP" "$P_CH_TCP" "$P_PG" "$P_FRONT" >"$PORTS_FILE"
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# process exists and is not a zombie
alive() {
  local st
  st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ -n "$st" && "$st" != Z ]]
}

# ---------------------------------------------------------------- clickhouse

ch_bin() {
  local b
  for b in /usr/bin/clickhouse-server /usr/sbin/clickhouse-server; do
    [[ -x "$b" ]] && { echo "$b"; return; }
  done
  command -v clickhouse-server || die "clickhouse-server not found (run test/setup.sh)"
}

# PID of our running ClickHouse (from the pid file), or nothing.
ch_pid() { owned_pid "$CH_PIDFILE" "$CH_ETC/config.xml"; }

# The PID in pidfile if that process is alive and its command line holds
# marker (so a reused PID is not taken for ours), or nothing.
owned_pid() { # pidfile marker
  [[ -f "$1" ]] || return 0
  local pid
  pid=$(tr -dc '0-9' <"$1")
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 0
  if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2"; then
    echo "$pid"
  fi
}

ch_ping() { [[ "$(curl -s --max-time 2 "http://127.0.0.1:$P_CH_HTTP/ping" 2>/dev/null)" == "Ok." ]]; }
ch_query_ok() {
  [[ "$(clickhouse-client --host 127.0.0.1 --port "$P_CH_TCP" -q 'SELECT 1' 2>/dev/null)" == "1" ]]
}

ch_write_config() {
  [[ -f "$CH_SRC_ETC/config.xml" && -f "$CH_SRC_ETC/users.xml" ]] ||
    die "$CH_SRC_ETC/config.xml or users.xml missing (run test/setup.sh)"
  mkdir -p "$CH_ETC" "$CH_DATA" "$CH_LOGDIR"
  cp "$CH_SRC_ETC/config.xml" "$CH_SRC_ETC/users.xml" "$CH_ETC/"
  # a self-signed certificate for the HTTPS port (TLS tests); it is its own CA
  if [[ ! -f "$CH_ETC/tls/server.crt" ]]; then
    mkdir -p "$CH_ETC/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
      -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
      -keyout "$CH_ETC/tls/server.key" -out "$CH_ETC/tls/server.crt" >/dev/null 2>&1 ||
      die "clickhouse: could not create a TLS certificate with openssl"
    chmod 644 "$CH_ETC/tls/server.key"
  fi
  python3 "$SCRIPT_DIR/ch_config.py" "$CH_ETC" "$CH_DATA" "$CH_LOGDIR" "$P_CH_HTTP" "$P_CH_TCP" "$((P_CH_HTTP + 320))"
}

ch_print_logs() {
  local f
  for f in "$CH_LOGDIR/clickhouse-server.err.log" "$CH_LOGDIR/clickhouse-server.log" "$CH_LOGDIR/stdout.log"; do
    [[ -s "$f" ]] || continue
    echo "---- last 40 lines of $f" >&2
    tail -n 40 "$f" >&2
  done
}

kill_wait() { # name pid timeout
  local name=$1 pid=$2 t=$3 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < t * 10; i++)); do
    alive "$pid" || return 0
    sleep 0.1
  done
  echo "$name: still running after ${t}s, sending SIGKILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    alive "$pid" || return 0
    sleep 0.1
  done
}

# Stop a server we started: TERM, then KILL; its pid file goes.
stop_owned() { # name pid pidfile
  kill_wait "$1" "$2" 20
  alive "$2" && die "$1: pid $2 did not exit"
  rm -f "$3"
  echo "$1: stopped (pid $2)"
}

ch_start() {
  local pid t0 bin i
  pid=$(ch_pid)
  if [[ -n "$pid" ]]; then
    echo "clickhouse: already running (pid $pid, http $P_CH_HTTP, tcp $P_CH_TCP)"
    return 0
  fi
  rm -f "$CH_PIDFILE"
  bin=$(ch_bin)
  for i in "$P_CH_HTTP" "$P_CH_TCP"; do
    port_busy "$i" && die "clickhouse: port $i on 127.0.0.1 is already in use (choose another with CH_HTTP_PORT / CH_TCP_PORT)"
  done
  t0=$(now)
  ch_write_config
  # Runs as the current user (18.16 runs fine as root). setsid: own session,
  # so the server survives the caller's terminal / process group.
  setsid "$bin" --config-file="$CH_ETC/config.xml" \
    </dev/null >"$CH_LOGDIR/stdout.log" 2>&1 &
  pid=$!
  echo "$pid" >"$CH_PIDFILE"
  for ((i = 0; i < START_TIMEOUT * 5; i++)); do
    if ! alive "$pid"; then
      echo "clickhouse: server exited during startup" >&2
      rm -f "$CH_PIDFILE"
      ch_print_logs
      exit 1
    fi
    if ch_ping && ch_query_ok; then
      echo "clickhouse: started in $(elapsed "$t0")s (pid $pid, http $P_CH_HTTP, tcp $P_CH_TCP)"
      return 0
    fi
    sleep 0.2
  done
  echo "clickhouse: not ready after ${START_TIMEOUT}s; stopping it" >&2
  ch_print_logs
  kill_wait clickhouse "$pid" 20
  rm -f "$CH_PIDFILE"
  exit 1
}

ch_stop() {
  local pid
  pid=$(ch_pid)
  if [[ -z "$pid" ]]; then
    rm -f "$CH_PIDFILE"
    echo "clickhouse: not running"
    return 0
  fi
  stop_owned clickhouse "$pid" "$CH_PIDFILE"
}

ch_status() {
  local pid
  pid=$(ch_pid)
  if [[ -n "$pid" ]] && ch_ping; then
    echo "clickhouse: up (pid $pid, http $P_CH_HTTP, tcp $P_CH_TCP)"
    return 0
  elif [[ -n "$pid" ]]; then
    echo "clickhouse: process $pid running but not answering on http $P_CH_HTTP"
  else
    echo "clickhouse: down"
  fi
  return 1
}

# ---------------------------------------------------------------- postgres

# Run a command as the OS user that owns the cluster.
as_pg() {
  if is_root; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_running() {
  [[ -f "$PG_DATA/PG_VERSION" ]] || return 1
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" status >/dev/null 2>&1
}

pg_isready_q() { "$PG_BIN/pg_isready" -q -h "$PG_DIR" -p "$P_PG" -U postgres -d postgres; }

pg_check_traversable() {
  # the postgres OS user must be able to reach .state/pg
  is_root || return 0
  id postgres >/dev/null 2>&1 || die "OS user 'postgres' does not exist (run test/setup.sh)"
  local d="$STATE" dirs=()
  while [[ "$d" != "/" && -n "$d" ]]; do
    dirs=("$d" "${dirs[@]}")
    d=$(dirname "$d")
  done
  for d in "${dirs[@]}"; do
    if ! runuser -u postgres -- test -x "$d"; then
      die "postgres: the OS user 'postgres' cannot traverse '$d' ($(stat -c '%A %U:%G' "$d")); PostgreSQL cannot run as root, so the path to $PG_DIR must be traversable: run 'chmod o+x $d' or move the repo"
    fi
  done
}

pg_init() {
  mkdir -p "$PG_DIR" "$PG_LOGDIR"
  chmod 755 "$STATE"
  pg_check_traversable
  if is_root; then
    chown postgres:postgres "$PG_DIR" "$PG_LOGDIR"
    [[ -d "$PG_DATA" ]] && chown -R postgres:postgres "$PG_DATA"
    [[ -f "$PG_LOG" ]] && chown postgres:postgres "$PG_LOG"
  fi
  if [[ ! -f "$PG_DATA/PG_VERSION" ]]; then
    local locale=C
    if locale -a 2>/dev/null | grep -qiE '^c\.utf-?8$'; then locale=C.UTF-8; fi
    if ! as_pg "$PG_BIN/initdb" -D "$PG_DATA" -A trust -U postgres --no-sync \
      -E UTF8 --locale="$locale" >"$PG_LOGDIR/initdb.log" 2>&1; then
      tail -n 40 "$PG_LOGDIR/initdb.log" >&2
      die "postgres: initdb failed"
    fi
    echo "include_if_exists = '$PG_CONF_NAME'" | as_pg tee -a "$PG_DATA/postgresql.conf" >/dev/null
  fi
  # (re)written on every start so that port / path changes apply
  as_pg tee "$PG_DATA/$PG_CONF_NAME" >/dev/null <<EOF
# written by test/servers.sh on every start
port = $P_PG
listen_addresses = '127.0.0.1'
unix_socket_directories = '$PG_DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
timezone = 'UTC'
log_timezone = 'UTC'
EOF
}

pg_start() {
  local t0 i
  if pg_running; then
    echo "postgres: already running (port $P_PG, socket dir $PG_DIR)"
    return 0
  fi
  port_busy "$P_PG" && die "postgres: port $P_PG on 127.0.0.1 is already in use (choose another with PGPORT)"
  t0=$(now)
  pg_init
  if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t "$START_TIMEOUT" -s start >/dev/null 2>&1; then
    echo "postgres: pg_ctl start failed; last 40 lines of $PG_LOG:" >&2
    tail -n 40 "$PG_LOG" >&2 || true
    exit 1
  fi
  for ((i = 0; i < START_TIMEOUT * 5; i++)); do
    if pg_isready_q; then
      echo "postgres: started in $(elapsed "$t0")s (port $P_PG, socket dir $PG_DIR)"
      return 0
    fi
    sleep 0.2
  done
  echo "postgres: not ready after ${START_TIMEOUT}s; last 40 lines of $PG_LOG:" >&2
  tail -n 40 "$PG_LOG" >&2 || true
  exit 1
}

pg_stop() {
  if ! pg_running; then
    echo "postgres: not running"
    return 0
  fi
  if ! as_pg "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 60 -s stop >/dev/null; then
    die "postgres: pg_ctl stop failed (see $PG_LOG)"
  fi
  echo "postgres: stopped"
}

pg_status() {
  if pg_running && pg_isready_q; then
    echo "postgres: up (port $P_PG, socket dir $PG_DIR)"
    return 0
  elif pg_running; then
    echo "postgres: running but not ready (port $P_PG)"
  else
    echo "postgres: down"
  fi
  return 1
}

# ---------------------------------------------------------------- chdb front
# test/chdb/front.py: ClickHouse 26.5 (chDB) behind a small HTTP front, for
# the modern-engine tests (make installcheck-modern). A test harness, NOT a
# ClickHouse server.

# PID of our running front (from the pid file), or nothing.
front_pid() { owned_pid "$FRONT_PIDFILE" "$FRONT_PY"; }

front_ping() { [[ "$(curl -s --max-time 2 "http://127.0.0.1:$P_FRONT/ping" 2>/dev/null)" == "Ok." ]]; }

front_print_log() {
  [[ -s "$FRONT_LOG" ]] || return 0
  echo "---- last 40 lines of $FRONT_LOG" >&2
  tail -n 40 "$FRONT_LOG" >&2
}

front_start() {
  local pid t0 i
  pid=$(front_pid)
  if [[ -n "$pid" ]]; then
    echo "chdb-front: already running (pid $pid, http $P_FRONT)"
    return 0
  fi
  rm -f "$FRONT_PIDFILE"
  port_busy "$P_FRONT" && die "chdb-front: port $P_FRONT on 127.0.0.1 is already in use (choose another with CH_MODERN_PORT)"
  command -v python3 >/dev/null 2>&1 || die "chdb-front: python3 not found (run test/setup.sh)"
  t0=$(now)
  mkdir -p "$FRONT_DIR"
  # the engine library: downloaded once per machine, then only its path is printed
  if ! bash "$REPO/test/chdb/install.sh" >"$FRONT_DIR/install.log" 2>&1; then
    echo "chdb-front: test/chdb/install.sh failed:" >&2
    tail -n 40 "$FRONT_DIR/install.log" >&2
    exit 1
  fi
  # setsid: own session, so the front survives the caller's terminal / process group
  setsid python3 "$FRONT_PY" --port "$P_FRONT" --state "$FRONT_DIR" \
    </dev/null >"$FRONT_LOG" 2>&1 &
  pid=$!
  echo "$pid" >"$FRONT_PIDFILE"
  for ((i = 0; i < START_TIMEOUT * 10; i++)); do
    if ! alive "$pid"; then
      echo "chdb-front: exited during startup" >&2
      rm -f "$FRONT_PIDFILE"
      front_print_log
      exit 1
    fi
    if front_ping; then
      echo "chdb-front: started in $(elapsed "$t0")s (pid $pid, http $P_FRONT; ClickHouse 26.5 engine, test harness)"
      return 0
    fi
    sleep 0.1
  done
  echo "chdb-front: not answering /ping after ${START_TIMEOUT}s; stopping it" >&2
  front_print_log
  kill_wait chdb-front "$pid" 10
  rm -f "$FRONT_PIDFILE"
  exit 1
}

front_stop() {
  local pid
  pid=$(front_pid)
  if [[ -z "$pid" ]]; then
    rm -f "$FRONT_PIDFILE"
    echo "chdb-front: not running"
    return 0
  fi
  stop_owned chdb-front "$pid" "$FRONT_PIDFILE"
}

front_status() {
  local pid
  pid=$(front_pid)
  if [[ -n "$pid" ]] && front_ping; then
    echo "chdb-front: up (pid $pid, http $P_FRONT)"
    return 0
  elif [[ -n "$pid" ]]; then
    echo "chdb-front: process $pid running but not answering on http $P_FRONT"
  else
    echo "chdb-front: down"
  fi
  return 1
}

# ---------------------------------------------------------------- main

cmd=${1:-}
case "$cmd" in
  start)
    mkdir -p "$STATE"
    chmod 755 "$STATE"
    if [[ -n "$(ch_pid)" ]] || [[ -n "$(front_pid)" ]] || { load_ports && pg_running; }; then
      # something already runs: keep its ports
      load_ports
      if [[ "${CH_HTTP_PORT:-$P_CH_HTTP}" != "$P_CH_HTTP" || "${CH_TCP_PORT:-$P_CH_TCP}" != "$P_CH_TCP" ||
        "${PGPORT:-$P_PG}" != "$P_PG" ]]; then
        echo "servers.sh: servers already running; ignoring port env vars (stop first to change ports)" >&2
      fi
      # the front's port may still change while the front is down
      if [[ -z "$(front_pid)" ]]; then
        P_FRONT=${CH_MODERN_PORT:-$P_FRONT}
        if ! [[ "$P_FRONT" =~ ^[0-9]+$ ]] || ((P_FRONT < 1 || P_FRONT > 65535)); then die "invalid port '$P_FRONT'"; fi
      elif [[ "${CH_MODERN_PORT:-$P_FRONT}" != "$P_FRONT" ]]; then
        echo "servers.sh: chdb-front already running; ignoring CH_MODERN_PORT (stop first to change it)" >&2
      fi
      save_ports
    else
      choose_ports
    fi
    # check what would make PostgreSQL fail before starting anything
    pg_check_traversable
    # unix socket paths are limited to 107 bytes
    ((${#PG_DIR} + 20 < 107)) || die "postgres: socket path '$PG_DIR/.s.PGSQL.$P_PG' is too long for a unix socket; move the repo to a shorter path"
    ch_start
    pg_start
    front_start
    ;;
  stop)
    load_ports
    rc=0
    front_stop || rc=1
    ch_stop || rc=1
    pg_stop || rc=1
    exit $rc
    ;;
  status)
    load_ports
    rc=0
    ch_status || rc=1
    pg_status || rc=1
    front_status || rc=1
    exit $rc
    ;;
  env)
    load_ports
    echo "export CH_HOST=127.0.0.1"
    echo "export CH_HTTP_PORT=$P_CH_HTTP"
    echo "export CH_TCP_PORT=$P_CH_TCP"
    echo "export PGHOST=$(printf '%q' "$PG_DIR")"
    echo "export PGPORT=$P_PG"
    echo "export PGUSER=postgres"
    echo "export PGDATABASE=postgres"
    echo "export CH_CLIENT=\"clickhouse-client --host 127.0.0.1 --port $P_CH_TCP\""
    echo "export CH_MODERN_PORT=$P_FRONT"
    echo "export CH_HTTPS_PORT=$((P_CH_HTTP + 320))"
    echo "export CH_TCPS_PORT=$((P_CH_HTTP + 321))"
    echo "export CH_CA_FILE=$(printf '%q' "$CH_ETC/tls/server.crt")"
    ;;
  *)
    echo "usage: $0 start|stop|status|env" >&2
    exit 2
    ;;
esac
