#!/bin/bash
# tests/clickbench/run.sh: ClickBench answers on 100,000 generated rows (seed
# 42) against the answers recorded from PostgreSQL 15 in expected/.
#
#   run.sh HITSGEN [--record]
#
# The server is the one of the libpq environment (PGHOST, PGPORT, PGUSER,
# PGDATABASE): Strata under tests/harness/harness_run, or a PostgreSQL 15 by
# hand (which must pass too: see README.md). It generates the file, checks
# that it is the file the answers were recorded from (sha256), creates
# `hits` (clickbench/create.sql) in the current database, loads it with psql
# \copy, runs clickbench/queries.sql once and compares every answer with
# clickbench/lib/cbcheck.py. --record writes the answers and the checksum
# into expected/ instead (gen_expected.sh does that against PostgreSQL 15).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
CB=$(cd "$HERE/../../clickbench" && pwd)
. "$CB/lib/common.sh"
HITSGEN=${1:?usage: run.sh HITSGEN [--record]}
RECORD=${2:-}
ROWS=100000 SEED=42
TMP=$(mktemp -d /tmp/strata-cb-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
PSQL=(psql -X -q -v ON_ERROR_STOP=1)

"$HITSGEN" --rows $ROWS --seed $SEED --out "$TMP/hits.tsv" || exit 1
SUM=$(sha256sum "$TMP/hits.tsv" | cut -d' ' -f1)
if [ "$RECORD" != --record ] && [ "$SUM" != "$(cat "$HERE/expected/hits.sha256")" ]; then
    echo "the generated file differs from the one expected/ was recorded from:" >&2
    echo "hitsgen changed; rerun tests/clickbench/gen_expected.sh and review the diff" >&2
    exit 1
fi
"${PSQL[@]}" -c 'DROP TABLE IF EXISTS hits' >/dev/null 2>&1
"${PSQL[@]}" -f "$CB/create.sql" || { echo "CREATE TABLE failed" >&2; exit 1; }
"${PSQL[@]}" -c "\\copy hits FROM '$TMP/hits.tsv'" || { echo "loading failed" >&2; exit 1; }

OUTDIR="$TMP/out"
[ "$RECORD" = --record ] && OUTDIR="$HERE/expected"
mkdir -p "$OUTDIR"
n=0
while IFS= read -r q; do
    [ -z "$q" ] && continue
    nn=$(printf '%02d' $n)
    "${PSQL[@]}" -A -t -F "$CB_SEP" -c "$q" > "$OUTDIR/q$nn.out" 2> "$OUTDIR/q$nn.err"
    [ -s "$OUTDIR/q$nn.err" ] || rm -f "$OUTDIR/q$nn.err"
    n=$((n + 1))
done < "$CB/queries.sql"
"${PSQL[@]}" -c 'DROP TABLE hits' >/dev/null 2>&1

if [ "$RECORD" = --record ]; then
    if ls "$OUTDIR"/*.err >/dev/null 2>&1; then echo "errors while recording:" >&2; cat "$OUTDIR"/*.err >&2; exit 1; fi
    echo "$SUM" > "$HERE/expected/hits.sha256"
    echo "recorded $n answers in $OUTDIR"
    exit 0
fi
python3 "$CB/lib/cbcheck.py" --queries "$CB/queries.sql" --expected "$HERE/expected" --actual "$OUTDIR"
