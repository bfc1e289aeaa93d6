#!/bin/bash
# tests/clickbench/gen_expected.sh: records expected/ (the answers of
# PostgreSQL 15 to the 43 ClickBench queries on 100,000 rows, seed 42) from a
# throwaway PostgreSQL 15 (initdb --locale=C -E UTF8, free port, temp dir;
# run as root it runs the server as the postgres OS user). With --check it
# records nothing and runs the CI check itself against that PostgreSQL,
# which must pass (the proof that the checker accepts PostgreSQL's answers).
#
#   tests/clickbench/gen_expected.sh HITSGEN [--check]   # HITSGEN: build/clickbench/hitsgen
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../../clickbench/lib/common.sh"
HITSGEN=$(cd "$(dirname "${1:?usage: gen_expected.sh HITSGEN}")" && pwd)/$(basename "$1")
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
DIR=$(mktemp -d /tmp/strata-cb-pg.XXXXXX)
chmod 755 "$DIR"
as_pg() { if cb_is_root; then su postgres -c "$*"; else sh -c "$*"; fi; }
USER_=postgres
cb_is_root && chown postgres "$DIR" || USER_=$(id -un)
PORT=$(cb_free_port)
as_pg "$PGBIN/initdb --locale=C -E UTF8 -U $USER_ -D '$DIR/data'" >/dev/null || exit 1
as_pg "$PGBIN/pg_ctl -D '$DIR/data' -l '$DIR/log' -w -o \"-p $PORT -k '$DIR' -c listen_addresses=''\" start" >/dev/null || exit 1
trap 'as_pg "$PGBIN/pg_ctl -D '"'$DIR/data'"' -m fast stop" >/dev/null; rm -rf "$DIR"' EXIT
MODE=--record
[ "${2:-}" = --check ] && MODE=""
PGHOST=$DIR PGPORT=$PORT PGUSER=$USER_ PGDATABASE=postgres bash "$HERE/run.sh" "$HITSGEN" $MODE
