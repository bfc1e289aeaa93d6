#!/bin/sh
# pg15_check.sh — prove the expected results are PostgreSQL 15's: start a
# throwaway PostgreSQL 15 (initdb --locale=C -E UTF8, trust, a free port, a
# temp directory), run every tests/sql/*/*.test through the sqllogictest
# runner (simple and extended protocol) and the psql test against it, then
# stop it and remove the directory.
#
#   tests/pg15_check.sh BUILDDIR [--rewrite FILE.test... | --capture-psql]
#
# BUILDDIR is a meson build directory of this repo (for tests/slt and
# tests/harness_run). --rewrite FILE... fills the expected rows of those
# .test files from PostgreSQL's answers (for new cases: review the diff);
# --capture-psql rewrites tests/psql/expected/. Run as root (the server runs
# as the postgres user) or as a user allowed to run postgres.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: pg15_check.sh BUILDDIR [--rewrite FILE.test... | --capture-psql]}
shift
bin=/usr/lib/postgresql/15/bin
slt=$build/tests/slt
[ -x "$bin/postgres" ] || { echo "PostgreSQL 15 not found in $bin (apt-get install postgresql-15)"; exit 2; }
[ -x "$slt" ] || { echo "$slt not built (ninja -C $build tests/slt tests/harness_run)"; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/pg15-check-XXXXXX")
port=$("$build/tests/harness_run" --free-port)
as_pg() {
    if [ "$(id -u)" = 0 ]; then
        setpriv --reuid postgres --regid postgres --init-groups "$@"
    else
        "$@"
    fi
}
[ "$(id -u)" = 0 ] && chown postgres "$dir"
cleanup() {
    as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT
as_pg "$bin/initdb" --locale=C -E UTF8 -A trust -U postgres -D "$dir/data" >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -w -l "$dir/log" \
    -o "-p $port -h 127.0.0.1 -k $dir -c fsync=off" start >/dev/null

conninfo="host=127.0.0.1 port=$port user=postgres"
status=0
case "${1:-}" in
--rewrite)
    shift
    "$slt" --conninfo "$conninfo" --rewrite "$@" || status=$?
    ;;
--capture-psql)
    PGHOST=127.0.0.1 PGPORT=$port STRATA_SOCKDIR=$dir \
        sh "$here/psql/psql_test.sh" --capture "$here/psql" || status=$?
    ;;
*)
    "$slt" --conninfo "$conninfo" "$here"/sql/*/*.test || status=$?
    "$slt" --conninfo "$conninfo" --extended "$here"/sql/*/*.test || status=$?
    PGHOST=127.0.0.1 PGPORT=$port STRATA_SOCKDIR=$dir sh "$here/psql/psql_test.sh" "$here/psql" || status=$?
    ;;
esac
exit $status
