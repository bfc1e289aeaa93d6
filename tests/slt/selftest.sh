#!/bin/sh
# selftest.sh — the sqllogictest runner must catch failures, not only pass:
# selftest/pass.test must pass, selftest/fail.test must report exactly its 7
# failures (and exit 1). Arguments: the slt binary, then its mode options
# (--server, or --conninfo "..." to check it against PostgreSQL).
set -u
slt=$1
shift
dir=$(cd "$(dirname "$0")" && pwd)/selftest
"$slt" "$@" "$dir/pass.test" || { echo "selftest: pass.test failed"; exit 1; }
out=$("$slt" "$@" "$dir/fail.test")
rc=$?
echo "$out"
case "$out" in
*"fail.test: 10 records, 7 failed"*) ;;
*) echo "selftest: fail.test should report 7 failures of 10 records"; exit 1 ;;
esac
[ $rc -eq 1 ] || { echo "selftest: fail.test exit status $rc, expected 1"; exit 1; }
echo "selftest: ok"
