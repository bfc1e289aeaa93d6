#!/bin/bash
# tests/clickbench/selftest.sh: proves clickbench/lib/cbcheck.py can fail.
# Starting from the recorded answers in expected/, it checks that the
# answers themselves pass, that reordering rows among ties passes, and that
# each of a set of wrong answers (a changed value, a missing row, a swapped
# order, an error) fails on exactly that query.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CB=$(cd "$HERE/../../clickbench" && pwd)
TMP=$(mktemp -d /tmp/strata-cb-self.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fails=0
check() { # check NAME WANT_STATUS [QUERY-THAT-MUST-FAIL]
    local out rc
    out=$(python3 "$CB/lib/cbcheck.py" --queries "$CB/queries.sql" --expected "$HERE/expected" --actual "$TMP/a")
    rc=$?
    if [ "$rc" != "$2" ] || { [ -n "${3:-}" ] && ! grep -q "^Q$3 *FAIL" <<<"$out"; }; then
        echo "selftest '$1': status $rc, wanted $2${3:+ with Q$3 failing}"; echo "$out" | grep FAIL
        fails=$((fails + 1))
    else
        echo "selftest '$1': ok"
    fi
}
fresh() { rm -rf "$TMP/a"; cp -r "$HERE/expected" "$TMP/a"; }

fresh; check "recorded answers" 0
fresh; tac "$HERE/expected/q19.out" > "$TMP/a/q19.out"; check "no ORDER BY: any order" 0
fresh; tac "$HERE/expected/q31.out" > "$TMP/a/q31.out"; check "ties at a LIMIT cut: any order" 0
fresh; sed -i '1s/^\([0-9]*\)/\1 1/' "$TMP/a/q00.out"; check "changed count" 1 0
fresh; sed -i '$d' "$TMP/a/q12.out"; check "missing row" 1 12
fresh; { sed -n 2p "$HERE/expected/q33.out"; sed -n 1p "$HERE/expected/q33.out"; sed -n '3,$p' "$HERE/expected/q33.out"; } > "$TMP/a/q33.out"
check "rows out of order" 1 33
fresh; sed -i '1s/\x1f[^\x1f]*$/\x1f999999/' "$TMP/a/q09.out"; check "wrong aggregate" 1 9
fresh; echo 'ERROR:  boom' > "$TMP/a/q05.err"; check "query error" 1 5
fresh; sed -i '1s/^[^\x1f]*/x/' "$TMP/a/q25.out"; check "exact-order query changed" 1 25
exit $((fails > 0))
