#!/bin/bash
# clickbench/benchmark.sh: ClickBench for Strata alone, the way a ClickBench
# entry runs: build, start Strata on a fresh data directory and a free port,
# create the table, load hits.tsv, record the load time (COPY, then
# CHECKPOINT so the rows are in columnar run files, then a final sync) and the
# data directory's size, run each query three times with psql \timing (server
# restarted and OS caches dropped before the first try when running as root),
# and write a result JSON in ClickBench's format.
#
#   clickbench/benchmark.sh [--tsv FILE | --rows N] [--seed S] [--build DIR] [--out FILE]
#                           [--create FILE] [--load server|client]
#
# --create: the table definition (default create.sql; create-tuned.sql is
# Strata's tuned variant with a primary key). --load server (default): the
# server reads the file itself, `COPY hits FROM '/abs/path/hits.tsv'` (the
# server is local, started by this script); --load client: psql's
# `\copy hits FROM 'hits.tsv'` streams it (COPY FROM STDIN), as ClickBench's
# PostgreSQL entry does. $CB_CREATE and $CB_LOAD set the same defaults
# (compare.sh runs this script).
#
# Without --tsv, hitsgen writes N rows (default 10,000,000, seed 1) into the
# work directory. The work directory is $CB_WORK (default /tmp/strata-clickbench-$$);
# the result goes to --out (default clickbench/results/strata.json).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
. "$HERE/lib/common.sh"

ROWS=10000000 SEED=1 TSV="" BUILD="${CB_BUILD:-$ROOT/build-clickbench}" OUT="$HERE/results/strata.json"
CREATE="${CB_CREATE:-$HERE/create.sql}" LOAD="${CB_LOAD:-server}" # compare.sh passes these on
while [ $# -gt 0 ]; do
    case "$1" in
        --tsv) TSV=$2 ;; --rows) ROWS=$2 ;; --seed) SEED=$2 ;;
        --build) BUILD=$2 ;; --out) OUT=$2 ;; --create) CREATE=$2 ;; --load) LOAD=$2 ;;
        *) echo "usage: $0 [--tsv FILE | --rows N] [--seed S] [--build DIR] [--out FILE] [--create FILE] [--load server|client]" >&2; exit 2 ;;
    esac
    shift 2
done
case "$LOAD" in server|client) ;; *) echo "--load server|client" >&2; exit 2 ;; esac
WORK=${CB_WORK:-/tmp/strata-clickbench-$$}
mkdir -p "$WORK" "$(dirname "$OUT")"

# 1. build (the server and the generator)
if [ ! -d "$BUILD" ]; then meson setup "$BUILD" "$ROOT" >/dev/null || exit 1; fi
ninja -C "$BUILD" protocol/strata >/dev/null || exit 1
STRATA="$BUILD/protocol/strata"
if [ -z "$TSV" ]; then
    ninja -C "$BUILD" clickbench/hitsgen >/dev/null || exit 1
    TSV="$WORK/hits.tsv"
    cb_log "generating $ROWS rows (seed $SEED)"
    "$BUILD/clickbench/hitsgen" --rows "$ROWS" --seed "$SEED" --out "$TSV" || exit 1
fi
TSV=$(cd "$(dirname "$TSV")" && pwd)/$(basename "$TSV") # the server resolves it, not psql

# 2. a fresh server
DATA="$WORK/strata-data"
rm -rf "$DATA"
PORT=$(cb_free_port)
SERVER_PID=""
strata_start() {
    "$STRATA" -D "$DATA" -p "$PORT" -h 127.0.0.1 -k "$WORK" >> "$WORK/strata.log" 2>&1 &
    SERVER_PID=$!
    cb_wait_psql 127.0.0.1 "$PORT" postgres postgres 60 || { cb_log "Strata did not start (see $WORK/strata.log)"; tail -5 "$WORK/strata.log" >&2; exit 1; }
}
PEAK_KB=0
# strata_note_peak: PEAK_KB = the largest VmHWM of any server instance so far
# (a cold cycle restarts the server before every query)
strata_note_peak() {
    local kb
    kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$SERVER_PID/status" 2>/dev/null)
    [ -n "$kb" ] && [ "$kb" -gt "$PEAK_KB" ] && PEAK_KB=$kb
    return 0
}
strata_stop() {
    [ -n "$SERVER_PID" ] || return 0
    strata_note_peak
    kill "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
    SERVER_PID=""
}
strata_restart() {
    # ClickBench's cold cycle: restart the server (only as root, like the
    # cache drop: otherwise the tries run against the warm server).
    cb_is_root || return 0
    strata_stop
    strata_start
}
trap strata_stop EXIT
strata_start
PSQL=(psql -X -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1)

# 3. create and load
"${PSQL[@]}" -q -f "$CREATE" || { cb_log "CREATE TABLE failed"; exit 1; }
cb_log "loading $TSV ($LOAD-side COPY, table from $(basename "$CREATE"))"
if [ "$LOAD" = server ]; then
    COPY_SQL="COPY hits FROM '${TSV//\'/\'\'}'"
else
    COPY_SQL="\\copy hits FROM '$TSV'"
fi
START=$(date +%s.%N)
if "${PSQL[@]}" -c "$COPY_SQL" && "${PSQL[@]}" -qc CHECKPOINT; then
    sync
    LOAD_TIME=$(awk -v a="$START" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
else
    cb_log "load failed"
    LOAD_TIME=null
fi
ROWS_LOADED=$("${PSQL[@]}" -qAtc 'SELECT COUNT(*) FROM hits' 2>/dev/null)
cb_log "load time: $LOAD_TIME s, rows: ${ROWS_LOADED:-?}"

# 4. the 43 queries
cb_run_queries "$HERE/queries.sql" "$WORK/strata-out" strata_restart 127.0.0.1 "$PORT" postgres postgres 3
# the server's peak resident memory (VmHWM) over the load and the queries:
# the largest of its instances' when cold cycles restart it
if [ -n "$SERVER_PID" ]; then
    strata_note_peak
    echo "peak RSS $PEAK_KB kB" > "$WORK/strata.rss"
    cb_log "Strata server: $(cat "$WORK/strata.rss")"
fi
DATA_SIZE=$(du -bcs "$DATA" | tail -1 | cut -f1)
cb_log "data size: $DATA_SIZE bytes"
NAME=Strata TUNED=no
case "$CREATE" in *tuned*) NAME="Strata (tuned)" TUNED=yes ;; esac
cb_write_json "$OUT" "$NAME" "$LOAD_TIME" "$DATA_SIZE" "$WORK/strata-out/times.txt" \
    '["C", "column-oriented", "PostgreSQL compatible"]' "$TUNED"
cb_log "result: $OUT (query outputs in $WORK/strata-out)"
