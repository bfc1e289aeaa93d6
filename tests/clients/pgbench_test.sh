#!/bin/sh
# pgbench_test.sh — pgbench against Strata: both ways of `pgbench -i`, the
# TPC-B script in the three query modes, the select-only script, and the
# TPC-B ledger check afterwards.
#
#   pgbench_test.sh [SECONDS]      (default 5 seconds per run)
#
# The server comes from libpq's environment (meson runs this under
# tests/harness_run, which starts a throwaway Strata and sets PGHOST/PGPORT).
# pgbench is Debian's postgresql-15 package (dev.sh installs it); when it is
# missing the test is skipped (exit 77) with the reason.
set -u
secs=${1:-5}
: "${PGHOST:?PGHOST must be set}" "${PGPORT:?PGPORT must be set}"
export LC_ALL=C PGUSER=${PGUSER:-postgres} PGDATABASE=${PGDATABASE:-postgres}

pgbench=
for p in /usr/lib/postgresql/15/bin/pgbench "$(command -v pgbench 2>/dev/null)"; do
    [ -n "$p" ] && [ -x "$p" ] && { pgbench=$p; break; }
done
if [ -z "$pgbench" ]; then
    echo "SKIP: pgbench not found (Debian package postgresql-15 ships /usr/lib/postgresql/15/bin/pgbench)"
    exit 77
fi
psql=$(dirname "$pgbench")/psql
[ -x "$psql" ] || psql=psql

fails=0
work=$(mktemp -d "${TMPDIR:-/tmp}/pgbench-test-XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# q SQL: one value from psql (unaligned, tuples only), errors to stdout.
q() { "$psql" -X -At -v ON_ERROR_STOP=1 -c "$1" 2>&1; }

# expect SQL WANT: the statement's single value must be WANT.
expect() {
    got=$(q "$1")
    if [ "$got" = "$2" ]; then
        echo "ok: $1 -> $got"
    else
        fail "$1: expected '$2', got '$got'"
    fi
}

check_init() { # after pgbench -i -s 2
    expect "SELECT count(*) FROM pgbench_branches" 2
    expect "SELECT count(*) FROM pgbench_tellers" 20
    expect "SELECT count(*) FROM pgbench_accounts" 200000
    expect "SELECT count(*) FROM pgbench_history" 0
    expect "SELECT count(DISTINCT aid) || ' ' || min(aid) || ' ' || max(aid) || ' ' || sum(abalance) FROM pgbench_accounts" "200000 1 200000 0"
    expect "SELECT count(*) FROM pgbench_accounts a JOIN pgbench_branches b USING (bid)" 200000
    expect "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relname LIKE 'pgbench_%' AND i.indisprimary" 3
}

# init NAME ARGS...: pgbench -i, which must exit 0.
init() {
    name=$1; shift
    if "$pgbench" -i "$@" >"$work/$name.log" 2>&1; then
        echo "ok: pgbench -i $* ($(grep -c . "$work/$name.log") lines of output, last: $(tail -n 1 "$work/$name.log"))"
        check_init
    else
        fail "pgbench -i $* exited with status $?:"
        sed 's/^/    /' "$work/$name.log"
    fi
}

# run NAME ARGS...: a pgbench run; exit 0, transactions > 0, no failures.
run() {
    name=$1; shift
    "$pgbench" "$@" >"$work/$name.log" 2>&1
    rc=$?
    done_tx=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/$name.log")
    failed_tx=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$work/$name.log")
    tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/$name.log")
    if [ $rc -ne 0 ] || [ -z "$done_tx" ] || [ "$done_tx" -eq 0 ] || [ "${failed_tx:-x}" != 0 ]; then
        fail "pgbench $*: exit $rc, processed '${done_tx}', failed '${failed_tx}':"
        sed 's/^/    /' "$work/$name.log"
    else
        echo "ok: pgbench $*: exit 0, $done_tx transactions, 0 failed, tps $tps"
    fi
}

echo "== pgbench -i, client-side generation (COPY FROM STDIN)"
init client -s 2
echo "== pgbench -i, server-side generation (generate_series), dtGvp"
init server -I dtGvp -s 2

# ledger WHEN: the TPC-B invariant. pgbench's own start of a run vacuums
# and truncates pgbench_history, so only the first run does that (it also
# exercises VACUUM and TRUNCATE); the later ones use -n and the history
# accumulates over all three modes.
ledger() {
    ledger=$(q "SELECT (SELECT sum(abalance) FROM pgbench_accounts) || ' ' || (SELECT sum(tbalance) FROM pgbench_tellers) || ' ' || (SELECT sum(bbalance) FROM pgbench_branches) || ' ' || (SELECT sum(delta) FROM pgbench_history)")
    hist=$(q "SELECT count(*) FROM pgbench_history")
    set -- $ledger
    if [ $# -eq 4 ] && [ "$1" = "$2" ] && [ "$2" = "$3" ] && [ "$3" = "$4" ] && [ "${hist:-0}" -gt 0 ] 2>/dev/null; then
        echo "ok: ledger $WHEN: sum(abalance) $1 = sum(tbalance) $2 = sum(bbalance) $3 = sum(delta) $4 ($hist history rows)"
    else
        fail "ledger $WHEN: sums of accounts tellers branches history = '$ledger', history rows '$hist'"
    fi
}

echo "== TPC-B, 4 clients x ${secs} s in each query mode, ledger after each"
nflag=
for mode in simple extended prepared; do
    run "tpcb-$mode" $nflag -c 4 -j 2 -T "$secs" -M "$mode"
    WHEN="after -M $mode" ledger
    nflag=-n
done
# Writers of the same rows (TPC-B's 2 branch rows at scale 2) while CHECKPOINTs
# run: a commit publishes its rows, then its deletions (storage/mvcc.c
# store__undo_commit), so a writer following an update to its new version
# always finds it readable; published the other way round, one update in
# a few runs was lost (the ledger sums disagreed).
echo "== TPC-B, 8 clients x ${secs} s, CHECKPOINT every 50 ms"
( i=0; while [ $i -lt $((secs * 20)) ]; do q "CHECKPOINT" >/dev/null; sleep 0.05; i=$((i + 1)); done ) &
ckpt=$!
run tpcb-checkpoints -n -c 8 -j 2 -T "$secs" -M prepared
wait $ckpt
WHEN="after checkpoints" ledger

echo "== select-only, 4 clients x ${secs} s, -M prepared"
run select-only -n -S -c 4 -j 2 -T "$secs" -M prepared
WHEN="after select-only" ledger

if [ $fails -ne 0 ]; then
    echo "pgbench_test: $fails check(s) failed"
    exit 1
fi
echo "pgbench_test: all checks passed"
