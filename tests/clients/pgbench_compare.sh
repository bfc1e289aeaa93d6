#!/bin/sh
# pgbench_compare.sh — pgbench TPS of Strata and of PostgreSQL 15 in one run,
# on this machine, same scale (-s 2), clients (-c 4 -j 2), duration and
# durability (both defaults: fsync on, synchronous_commit on, so every
# commit waits for its WAL fdatasync). Not a test (speed is a later issue's
# goal): it prints the figures recorded in tests/clients/README.md.
#
#   pgbench_compare.sh STRATA_BIN [SECONDS]     (default 20 seconds per run)
#
# Needs PostgreSQL 15's server binaries (Debian postgresql-15). Run as root
# (PostgreSQL then runs as the postgres user) or as an ordinary user.
set -eu
strata=${1:?usage: pgbench_compare.sh STRATA_BIN [SECONDS]}
secs=${2:-20}
bin=/usr/lib/postgresql/15/bin
export LC_ALL=C PGUSER=postgres PGDATABASE=postgres
unset PGHOST PGPORT PGOPTIONS 2>/dev/null || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
as_pg() { if [ "$(id -u)" -eq 0 ]; then su postgres -c "$1"; else sh -c "$1"; fi; }

work=$(mktemp -d /tmp/pgbench-compare-XXXXXX)
chmod 777 "$work"
sport=$(free_port)
pport=$(free_port)
spid=
cleanup() {
    [ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
    as_pg "$bin/pg_ctl -D $work/pg -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir "$work/strata"
"$strata" -D "$work/strata" -p "$sport" -h 127.0.0.1 -k "$work/strata" >"$work/strata.log" 2>&1 &
spid=$!
as_pg "$bin/initdb --locale=C -E UTF8 -A trust -U postgres -D $work/pg" >/dev/null
as_pg "$bin/pg_ctl -D $work/pg -o '-p $pport -k $work -c listen_addresses=127.0.0.1' -l $work/pg.log -w start" >/dev/null
for i in $(seq 50); do
    "$bin/pg_isready" -q -h 127.0.0.1 -p "$sport" && break
    sleep 0.2
done

echo "pgbench_compare: scale 2, 4 clients, 2 threads, ${secs} s per run, fsync on, synchronous_commit on"
echo "machine: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for port in "$sport" "$pport"; do
    "$bin/pgbench" -h 127.0.0.1 -p "$port" -i -s 2 -q >"$work/init.log" 2>&1 || { cat "$work/init.log"; exit 1; }
done
tps() { # PORT ARGS...: the tps figure of one pgbench run
    port=$1; shift
    "$bin/pgbench" -h 127.0.0.1 -p "$port" -c 4 -j 2 -T "$secs" "$@" >"$work/run.log" 2>&1 || { cat "$work/run.log" >&2; echo "error"; return; }
    f=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$work/run.log")
    t=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/run.log")
    echo "$t (failed $f)"
}
printf '| %-28s | %-22s | %-22s |\n' "run" "Strata tps" "PostgreSQL 15 tps"
printf '|%s|%s|%s|\n' "------------------------------" "------------------------" "------------------------"
for mode in simple extended prepared; do
    printf '| %-28s | %-22s | %-22s |\n' "TPC-B -M $mode" "$(tps "$sport" -M "$mode")" "$(tps "$pport" -M "$mode")"
done
printf '| %-28s | %-22s | %-22s |\n' "select-only -S -M prepared" "$(tps "$sport" -S -M prepared)" "$(tps "$pport" -S -M prepared)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
