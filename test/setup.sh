#!/usr/bin/env bash
# Install every Debian package needed to build clickhouse_fdw, run the
# throwaway test servers (test/servers.sh) and run the tests.
# Idempotent: when everything is already installed it does nothing
# (and does not run apt-get update).
set -euo pipefail

PACKAGES=(
  # build
  build-essential pkg-config
  postgresql-15 postgresql-server-dev-15 postgresql-client-15
  libcurl4-openssl-dev liblz4-dev libzstd-dev libssl-dev
  # tests: pgTAP extension + pg_prove (pg_prove is in the perl package below,
  # which postgresql-15-pgtap only *recommends*; it runs psql and needs perl's
  # App::Prove from perl-modules)
  postgresql-15-pgtap libtap-parser-sourcehandler-pgtap-perl perl
  # ClickHouse 18.16 (Debian's build)
  clickhouse-server clickhouse-client
  # ZooKeeper 3.8 (and a JRE) for the test cluster's distributed DDL
  # (test/cluster.sh runs it standalone; the package starts no service)
  zookeeper
  # fuzzing / sanitizers
  clang llvm
  # tools used by scripts and tests
  curl bsdextrautils python3 openssl procps ca-certificates util-linux bc
  # ASan/UBSan/libFuzzer runtimes for clang
  libclang-rt-14-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: must run as root to install them (e.g. sudo bash $0)" >&2
  exit 1
fi

echo "setup: installing ${#missing[@]} package(s): ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# Note: the postgresql / clickhouse-server packages may start their own system
# services (ports 5432 / 8123 / 9000); test/servers.sh uses other ports.
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
