#!/usr/bin/env bash
# test/dev/parallel.sh N -- environment for a second (third, ...) checkout of the
# repository (e.g. a `git worktree`) whose tests run while another checkout's do.
# Not used by CI or by test/check.sh; a developer convenience.
#
#   eval "$(bash test/dev/parallel.sh 2)"   # N = 1..9
#   bash test/check.sh                      # or servers.sh start, make installcheck, ...
#
# Two checkouts collide on ports and on the PostgreSQL installation that
# `make install` writes into. Slot N gets:
#   - ports shifted by 100*N (ClickHouse HTTP/TCP/HTTPS, PostgreSQL, the 26.5 front,
#     the fault tests' fake server, the test cluster of test/cluster.sh);
#   - its own relocatable copy of PostgreSQL 15 in /tmp/chfdw-pg-N (PostgreSQL finds
#     its share/ and lib/ relative to its binaries), made on first use, so
#     `make install` there leaves the system's extension directory alone;
#   - the chDB engine library shared with the main checkout (CHDB_CACHE_DIR).
set -euo pipefail
n=${1:-}
[[ "$n" =~ ^[1-9]$ ]] || { echo "usage: $0 N   (N = 1..9)" >&2; exit 2; }
src_bin=/usr/lib/postgresql/15/bin
root=/tmp/chfdw-pg-$n
if [[ ! -x "$root/usr/lib/postgresql/15/bin/pg_config" ]]; then
  mkdir -p "$root/usr/lib/postgresql" "$root/usr/share/postgresql" "$root/usr/include/postgresql"
  cp -a /usr/lib/postgresql/15 "$root/usr/lib/postgresql/"
  cp -a /usr/share/postgresql/15 "$root/usr/share/postgresql/"
  ln -sfn /usr/include/postgresql/15 "$root/usr/include/postgresql/15"
  chmod -R a+rX "$root"
fi
common=$(cd "$(git rev-parse --git-common-dir)/.." && pwd)
off=$((100 * n))
cat <<ENV
export PG_CONFIG=$root/usr/lib/postgresql/15/bin/pg_config
export CH_HTTP_PORT=$((18123 + off))
export CH_TCP_PORT=$((19000 + off))
export PGPORT=$((15432 + off))
export CH_MODERN_PORT=$((18124 + off))
export FAULT_PORT=$((18129 + off))
export CLUSTER_BASE=$((17000 + off))
export CHDB_CACHE_DIR=$common/.state/chdb
ENV
