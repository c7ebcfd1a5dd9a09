#!/usr/bin/env bash
# test/cluster.sh -- a throwaway ClickHouse 18.16 cluster on loopback ports:
# 4 server processes forming the cluster "chfdw_cluster" of 2 shards x 2
# replicas (internal_replication false: a Distributed table writes each
# replica itself), each with its own config and data, and one standalone
# ZooKeeper (Debian's zookeeper package) for distributed DDL (ON CLUSTER).
#
#   bash test/cluster.sh start          start ZooKeeper and the 4 nodes (idempotent)
#   bash test/cluster.sh stop           stop them
#   bash test/cluster.sh status         exit 0 if all 4 and ZooKeeper answer
#   bash test/cluster.sh env            export lines: CLUSTER_HTTP_PORTS, CLUSTER_TCP_PORTS, ...
#   bash test/cluster.sh kill N         SIGKILL node N (1-4), for fault tests
#   bash test/cluster.sh start-node N   start node N again
#   bash test/cluster.sh kill-zk        SIGKILL ZooKeeper
#   bash test/cluster.sh start-zk       start ZooKeeper again (on its data)
#
# Node i (1-4) listens on HTTP CLUSTER_BASE + 10*i, TCP + 1, HTTPS + 2
# (CLUSTER_BASE default 17000); ZooKeeper on CLUSTER_BASE + 99 (client port
# only: no admin server, no quorum ports). Shard 1 = nodes 1, 2; shard 2 =
# nodes 3, 4. State in <repo>/.state/cluster/node<i>/{etc,data,log} and
# .state/cluster/zk/ (emptied by `start` when ZooKeeper is not running),
# pid files beside.
set -euo pipefail
umask 022
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$SCRIPT_DIR/.." && pwd -P)
STATE="$REPO/.state/cluster"
BASE=${CLUSTER_BASE:-17000}
NODES=(1 2 3 4)
START_TIMEOUT=${START_TIMEOUT:-60}

die() { echo "cluster.sh: $*" >&2; exit 1; }
http_port() { echo $((BASE + 10 * $1)); }
tcp_port() { echo $((BASE + 10 * $1 + 1)); }
https_port() { echo $((BASE + 10 * $1 + 2)); }
ping_node() { [[ "$(curl -s --max-time 2 "http://127.0.0.1:$(http_port "$1")/ping" 2>/dev/null)" == "Ok." ]]; }
alive() { local st; st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1; [[ -n "$st" && "$st" != Z ]]; }
node_pid() {	# the pid of node N if it runs and is ours
	local f="$STATE/node$1.pid" pid
	[[ -f "$f" ]] || return 0
	pid=$(tr -dc '0-9' <"$f")
	[[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 0
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$STATE/node$1/etc/config.xml" && echo "$pid"
	return 0
}
zk_port() { echo $((BASE + 99)); }
zk_ask() {	# zk_ask WORD: a ZooKeeper four-letter word's answer ("" if none)
	local r
	r=$( (exec 3<>"/dev/tcp/127.0.0.1/$(zk_port)" && printf '%s' "$1" >&3 && timeout 2 cat <&3) 2>/dev/null) || true
	printf '%s' "$r"
}
zk_pid() {	# the pid of our ZooKeeper if it runs
	local f="$STATE/zk.pid" pid
	[[ -f "$f" ]] || return 0
	pid=$(tr -dc '0-9' <"$f")
	[[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 0
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$STATE/zk/zoo.cfg" && echo "$pid"
	return 0
}
# Debian's zookeeper.jar names its dependencies in its manifest's Class-Path;
# slf4j-simple (a dependency too) sends ZooKeeper's log to stderr
start_zk() {
	local dir="$STATE/zk" pid i cp=/usr/share/java/zookeeper.jar t0
	[[ -n "$(zk_pid)" ]] && return 0
	[[ -r "$cp" ]] || die "ZooKeeper: $cp not found (run test/setup.sh: Debian package zookeeper)"
	command -v java >/dev/null || die "ZooKeeper: java not found (run test/setup.sh)"
	[[ -r /usr/share/java/slf4j-simple.jar ]] && cp="$cp:/usr/share/java/slf4j-simple.jar"
	(exec 3<>"/dev/tcp/127.0.0.1/$(zk_port)") 2>/dev/null && die "ZooKeeper: port $(zk_port) is in use (choose another CLUSTER_BASE)"
	[[ "${1:-}" == fresh ]] && rm -rf "$dir"
	mkdir -p "$dir/data"
	cat >"$dir/zoo.cfg" <<-CFG
		tickTime=500
		initLimit=10
		syncLimit=5
		dataDir=$dir/data
		clientPort=$(zk_port)
		clientPortAddress=127.0.0.1
		maxClientCnxns=200
		admin.enableServer=false
		4lw.commands.whitelist=ruok,srvr
		# sessions of 1-20 s (2 and 40 ticks), ClickHouse asks for 6 s (ch_config.py)
		minSessionTimeout=1000
		maxSessionTimeout=20000
	CFG
	t0=$(date +%s.%N)
	setsid java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Dzookeeper.jmx.log4j.disable=true \
		-cp "$cp" org.apache.zookeeper.server.ZooKeeperServerMain "$dir/zoo.cfg" \
		</dev/null >"$dir/zookeeper.log" 2>&1 &
	pid=$!
	echo "$pid" >"$STATE/zk.pid"
	for ((i = 0; i < START_TIMEOUT * 10; i++)); do
		alive "$pid" || { tail -20 "$dir/zookeeper.log" >&2; die "ZooKeeper exited during startup"; }
		if [[ "$(zk_ask ruok)" == imok ]]; then
			echo "cluster: ZooKeeper up in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')s (port $(zk_port))"
			return 0
		fi
		sleep 0.1
	done
	die "ZooKeeper not answering ruok on port $(zk_port) after ${START_TIMEOUT}s"
}
stop_zk() {
	local pid i
	pid=$(zk_pid)
	[[ -z "$pid" ]] && { rm -f "$STATE/zk.pid"; return 0; }
	kill -"${1:-TERM}" "$pid" 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do alive "$pid" || break; sleep 0.1; done
	alive "$pid" && kill -KILL "$pid" 2>/dev/null
	rm -f "$STATE/zk.pid"
}
cluster_def() {
	echo "chfdw_cluster=127.0.0.1:$(tcp_port 1),127.0.0.1:$(tcp_port 2);127.0.0.1:$(tcp_port 3),127.0.0.1:$(tcp_port 4)"
}

start_node() {
	local n=$1 dir="$STATE/node$1" pid i
	[[ -n "$(node_pid "$n")" ]] && return 0
	for p in "$(http_port "$n")" "$(tcp_port "$n")"; do
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && die "node $n: port $p is in use (choose another CLUSTER_BASE)"
	done
	mkdir -p "$dir/etc/tls" "$dir/data" "$dir/log"
	cp "$STATE/tls/server.crt" "$STATE/tls/server.key" "$dir/etc/tls/"
	cp /etc/clickhouse-server/config.xml /etc/clickhouse-server/users.xml "$dir/etc/"
	python3 "$SCRIPT_DIR/ch_config.py" "$dir/etc" "$dir/data" "$dir/log" \
		"$(http_port "$n")" "$(tcp_port "$n")" "$(https_port "$n")" "$(cluster_def)" "127.0.0.1:$(zk_port)"
	setsid clickhouse-server --config-file="$dir/etc/config.xml" </dev/null >"$dir/log/stdout.log" 2>&1 &
	pid=$!
	echo "$pid" >"$STATE/node$n.pid"
	for ((i = 0; i < START_TIMEOUT * 5; i++)); do
		alive "$pid" || { tail -20 "$dir/log/clickhouse-server.err.log" >&2 2>/dev/null; die "node $n exited during startup"; }
		ping_node "$n" && return 0
		sleep 0.2
	done
	die "node $n not answering after ${START_TIMEOUT}s"
}

stop_node() {
	local pid i
	pid=$(node_pid "$1")
	[[ -z "$pid" ]] && { rm -f "$STATE/node$1.pid"; return 0; }
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 200; i++)); do alive "$pid" || break; sleep 0.1; done
	alive "$pid" && kill -KILL "$pid" 2>/dev/null
	rm -f "$STATE/node$1.pid"
}

case "${1:-}" in
	start)
		command -v clickhouse-server >/dev/null || die "clickhouse-server not found (run test/setup.sh)"
		mkdir -p "$STATE/tls"
		if [[ ! -f "$STATE/tls/server.crt" ]]; then
			openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=localhost" \
				-addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
				-keyout "$STATE/tls/server.key" -out "$STATE/tls/server.crt" >/dev/null 2>&1 ||
				die "openssl could not make a certificate"
			chmod 644 "$STATE/tls/server.key"
		fi
		start_zk fresh
		t0=$(date +%s.%N)
		# started one after the other: 2 cores, and each node's start is short
		for n in "${NODES[@]}"; do start_node "$n"; done
		echo "cluster: 4 nodes up in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')s (http $(http_port 1)..$(http_port 4))"
		;;
	stop)
		for n in "${NODES[@]}"; do stop_node "$n"; done
		stop_zk
		echo "cluster: stopped"
		;;
	status)
		rc=0
		for n in "${NODES[@]}"; do
			if ping_node "$n"; then echo "node $n: up (http $(http_port "$n"))"; else echo "node $n: down"; rc=1; fi
		done
		if [[ "$(zk_ask ruok)" == imok ]]; then echo "zookeeper: up (port $(zk_port))"; else echo "zookeeper: down"; rc=1; fi
		exit $rc
		;;
	kill)
		[[ "${2:-}" =~ ^[1-4]$ ]] || die "usage: $0 kill N"
		pid=$(node_pid "$2"); [[ -n "$pid" ]] && kill -KILL "$pid"
		for ((i = 0; i < 50; i++)); do [[ -n "$pid" ]] && alive "$pid" || break; sleep 0.1; done
		rm -f "$STATE/node$2.pid"
		;;
	start-node)
		[[ "${2:-}" =~ ^[1-4]$ ]] || die "usage: $0 start-node N"
		start_node "$2"
		;;
	kill-zk)
		stop_zk KILL
		;;
	start-zk)
		start_zk
		;;
	env)
		echo "export CLUSTER_NAME=chfdw_cluster"
		echo "export CLUSTER_HTTP_PORTS=\"$(for n in "${NODES[@]}"; do printf '%s ' "$(http_port "$n")"; done | sed 's/ $//')\""
		echo "export CLUSTER_ZK_PORT=$(zk_port)"
		echo "export CLUSTER_TCP_PORTS=\"$(for n in "${NODES[@]}"; do printf '%s ' "$(tcp_port "$n")"; done | sed 's/ $//')\""
		;;
	*)
		echo "usage: $0 start|stop|status|env|kill N|start-node N|kill-zk|start-zk" >&2
		exit 2
		;;
esac
