#!/bin/sh
# psql_test.sh — drive the real psql client and compare what it prints with
# what psql prints against PostgreSQL 15 (tests/psql/expected/).
#
#   psql_test.sh [--capture] DIR
#
# DIR is tests/psql. The server comes from libpq's environment: PGHOST,
# PGPORT (meson runs this script under tests/harness_run, which starts
# Strata and sets them), and STRATA_SOCKDIR for the Unix-socket case.
# --capture writes the expected files instead of comparing: run it only
# against PostgreSQL 15 (see tests/README.md).
#
# Each case records psql's stdout, its stderr and its exit status. Lines
# starting with "LOCATION:" (PostgreSQL's C source position, shown by
# VERBOSITY verbose) are dropped from stderr on both sides: they name
# PostgreSQL's source files, which Strata legitimately does not have.
set -u

capture=0
if [ "${1:-}" = "--capture" ]; then
    capture=1
    shift
fi
dir=${1:?usage: psql_test.sh [--capture] DIR}
cases=$dir/cases
expected=$dir/expected
: "${PGHOST:?PGHOST must be set}" "${PGPORT:?PGPORT must be set}"
sockdir=${STRATA_SOCKDIR:-}

# Untranslated messages, no psqlrc, no pager, the same client encoding.
LC_ALL=C
LANG=C
PGCLIENTENCODING=UTF8
PAGER=cat
PSQL_PAGER=cat
export LC_ALL LANG PGCLIENTENCODING PAGER PSQL_PAGER
unset PGOPTIONS PGAPPNAME PSQLRC 2>/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/psql-test-XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
failures=0
ran=0

# run_case NAME HOST INPUT [PSQL ARGS...]: INPUT is a file in cases/ fed on
# stdin, or "-" for none.
run_case() {
    name=$1 host=$2 input=$3
    shift 3
    if [ "$input" = "-" ]; then
        in=/dev/null
    else
        in=$cases/$input
    fi
    psql -X -h "$host" -p "$PGPORT" -U postgres -d postgres "$@" \
        <"$in" >"$work/$name.out" 2>"$work/$name.err.raw"
    echo $? >"$work/$name.rc"
    grep -v '^LOCATION:' "$work/$name.err.raw" >"$work/$name.err"
    ran=$((ran + 1))
    if [ $capture -eq 1 ]; then
        cp "$work/$name.out" "$work/$name.err" "$work/$name.rc" "$expected/"
        echo "captured $name (exit $(cat "$work/$name.rc"))"
        return
    fi
    ok=1
    for part in out err rc; do
        if ! diff -u "$expected/$name.$part" "$work/$name.$part" >"$work/$name.$part.diff"; then
            ok=0
            echo "FAIL psql case $name ($part differs; expected vs actual):"
            cat "$work/$name.$part.diff"
        fi
    done
    if [ $ok -eq 1 ]; then
        echo "ok   $name"
    else
        failures=$((failures + 1))
    fi
}

# psql -c prints the aligned table exactly as for PostgreSQL.
run_case select_c "$PGHOST" - -c 'select 1 as x'
# Several statements in one -c: psql 15 prints every result.
run_case multi_c "$PGHOST" - -c "select 1 as a, 'two' as b; select 3.50 as c"
# A runtime error: ERROR line on stderr, exit status 1.
run_case runtime_error_c "$PGHOST" - -c 'select 1/0'
# A script with a syntax error: LINE n and the caret under the bad token;
# the script goes on after the error (no ON_ERROR_STOP) and psql exits 0.
run_case syntax_error "$PGHOST" syntax_error.sql
# The same script with ON_ERROR_STOP=1 stops at the first error, exit 3.
run_case on_error_stop "$PGHOST" syntax_error.sql -v ON_ERROR_STOP=1
# VERBOSITY verbose shows the SQLSTATE of runtime and syntax errors.
run_case verbose "$PGHOST" verbose.sql
# A multi-statement file: DDL, multi-row INSERT, joins, GROUP BY/HAVING,
# ORDER BY, LIMIT, transactions, with command tags and NULL display.
run_case script "$PGHOST" script.sql
# COPY FROM STDIN with inline data, \copy (text, CSV), COPY TO STDOUT, CONTEXT.
run_case copy "$PGHOST" copy.sql
# psql's backslash commands (\dt, \d, \d TABLE, \dn, \du, \l, \di, \dv,
# \df, \dT, \dx, \db, +-forms, patterns, \x) over the pg_catalog tables,
# and catalog queries of the kind drivers send (issue 6).
run_case meta "$PGHOST" meta.sql
# The same over the Unix-domain socket in the server's socket directory.
if [ -n "$sockdir" ]; then
    run_case unix_socket "$sockdir" - -c 'select 2 as y'
else
    echo "skip unix_socket (STRATA_SOCKDIR not set)"
fi

if [ $capture -eq 1 ]; then
    exit 0
fi
echo "psql tests: $ran cases, $failures failed"
[ $failures -eq 0 ]
