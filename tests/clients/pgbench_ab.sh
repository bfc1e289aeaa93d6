#!/bin/sh
# pgbench_ab.sh — pgbench TPS of two Strata builds (before/after a change)
# and PostgreSQL 15 in one run, on this machine: pgbench_compare.sh's setup
# (scale 2, -c 4 -j 2, fsync on, synchronous_commit on) with alternating
# rounds (each round runs every mode on the three servers in turn) and the
# median of the rounds per cell, so a noisy shared machine hits all three
# alike. Not a test: it prints the table recorded in tests/clients/README.md.
#
#   pgbench_ab.sh BEFORE_BIN AFTER_BIN [SECONDS [ROUNDS]]   (default 10 s, 3 rounds)
#
# Needs PostgreSQL 15's server binaries (Debian postgresql-15); run as root
# (PostgreSQL then runs as the postgres user) or as an ordinary user.
set -eu
before=${1:?usage: pgbench_ab.sh BEFORE_BIN AFTER_BIN [SECONDS [ROUNDS]]}
after=${2:?usage: pgbench_ab.sh BEFORE_BIN AFTER_BIN [SECONDS [ROUNDS]]}
secs=${3:-10}
rounds=${4:-3}
bin=/usr/lib/postgresql/15/bin
export LC_ALL=C PGUSER=postgres PGDATABASE=postgres
unset PGHOST PGPORT PGOPTIONS 2>/dev/null || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
as_pg() { if [ "$(id -u)" -eq 0 ]; then su postgres -c "$1"; else sh -c "$1"; fi; }

work=$(mktemp -d /tmp/pgbench-ab-XXXXXX)
chmod 777 "$work"
bport=$(free_port); aport=$(free_port); pport=$(free_port)
bpid=; apid=
cleanup() {
    [ -n "$bpid" ] && kill "$bpid" 2>/dev/null && wait "$bpid" 2>/dev/null
    [ -n "$apid" ] && kill "$apid" 2>/dev/null && wait "$apid" 2>/dev/null
    as_pg "$bin/pg_ctl -D $work/pg -m fast -w stop" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

mkdir "$work/before" "$work/after"
"$before" -D "$work/before" -p "$bport" -h 127.0.0.1 -k "$work/before" >"$work/before.log" 2>&1 &
bpid=$!
"$after" -D "$work/after" -p "$aport" -h 127.0.0.1 -k "$work/after" >"$work/after.log" 2>&1 &
apid=$!
as_pg "$bin/initdb --locale=C -E UTF8 -A trust -U postgres -D $work/pg" >/dev/null
as_pg "$bin/pg_ctl -D $work/pg -o '-p $pport -k $work -c listen_addresses=127.0.0.1' -l $work/pg.log -w start" >/dev/null
for port in "$bport" "$aport"; do
    for i in $(seq 50); do
        "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" && break
        sleep 0.2
    done
done

echo "pgbench_ab: scale 2, 4 clients, 2 threads, ${secs} s per run, ${rounds} rounds, fsync on, synchronous_commit on"
echo "machine: $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for port in "$bport" "$aport" "$pport"; do
    "$bin/pgbench" -h 127.0.0.1 -p "$port" -i -s 2 -q >"$work/init.log" 2>&1 || { cat "$work/init.log"; exit 1; }
done
: >"$work/results"
for r in $(seq "$rounds"); do
    for mode in simple extended prepared select; do
        case $mode in select) args="-S -M prepared";; *) args="-M $mode";; esac
        for who in before after pg; do
            case $who in before) port=$bport;; after) port=$aport;; pg) port=$pport;; esac
            # shellcheck disable=SC2086
            "$bin/pgbench" -h 127.0.0.1 -p "$port" -c 4 -j 2 -T "$secs" $args >"$work/run.log" 2>&1 || true
            t=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/run.log")
            f=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$work/run.log")
            echo "$mode $who ${t:-0} ${f:-error}" >>"$work/results"
        done
    done
done
python3 - "$work/results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
label = {"simple": "TPC-B -M simple", "extended": "TPC-B -M extended",
         "prepared": "TPC-B -M prepared", "select": "select-only -S -M prepared"}
print("| %-26s | %-22s | %-22s | %-22s |" % ("run (median tps, rounds)", "Strata before", "Strata after", "PostgreSQL 15"))
print("|%s|%s|%s|%s|" % ("-" * 28, "-" * 24, "-" * 24, "-" * 24))
for mode in ("simple", "extended", "prepared", "select"):
    cells = []
    for who in ("before", "after", "pg"):
        r = [x for x in rows if x[0] == mode and x[1] == who]
        tps = [float(x[2]) for x in r]
        failed = sum(int(x[3]) if x[3].isdigit() else 1 for x in r)
        cells.append("%.0f (%s)%s" % (statistics.median(tps), " ".join("%.0f" % t for t in tps),
                                      "" if failed == 0 else " FAILED %d" % failed))
    print("| %-26s | %-22s | %-22s | %-22s |" % (label[mode], *cells))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
