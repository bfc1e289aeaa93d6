#!/bin/bash
# clickbench/compare.sh: one ClickBench run of Strata, PostgreSQL 15 and, where
# they install, DuckDB (npm @duckdb/node-api) and ClickHouse (npm chdb) on the
# same generated file. Checks that every query's result from Strata equals
# PostgreSQL's (lib/cbcheck.py: row order normalised only where ORDER BY
# leaves ties), prints the hot times side by side, load times, data sizes and
# ClickBench's relative hot/cold scores, and draws results/compare.svg.
#
#   clickbench/compare.sh [--tsv FILE | --rows N] [--seed S]
#                         [--systems "strata postgresql duckdb clickhouse"]
#                         [--build DIR] [--out DIR] [--tries N] [--strata-create FILE]
#
# Strata runs through benchmark.sh (server-side COPY; $CB_LOAD passes on).
# Its table definition is --strata-create FILE, else $CB_STRATA_CREATE, else
# $CB_CREATE, else create-tuned.sql (the primary key ClickHouse's MergeTree
# entry also uses: a large COPY then stores rows in key order, see
# executor/README.md "Clustered bulk loads"); the other systems use create.sql
# or their own files. The systems run one after another in the order of --systems.
# CB_COLD=0: no restart and no cache drop before each query's first
# try (lib/common.sh). Otherwise, as root, every system's first try of a query
# follows a restart (Strata's and PostgreSQL's servers; DuckDB and chDB in a
# fresh process per query, runners/run.mjs) and a page-cache drop. Peak memory: the embedded runners' peak RSS (GNU time)
# goes to the log and WORK/duckdb.rss, WORK/chdb.rss; Strata's server VmHWM
# to WORK/strata/strata.rss. Work files go to $CB_WORK (default /tmp/strata-compare-$$); the npm
# packages of runners/package.json are installed into $CB_NODE_DIR (default
# ~/.cache/strata-clickbench-runners), outside the repository.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
. "$HERE/lib/common.sh"

ROWS=10000000 SEED=1 TSV="" BUILD="${CB_BUILD:-$ROOT/build-clickbench}" OUT="$HERE/results" TRIES=3
SYSTEMS="strata postgresql duckdb clickhouse"
STRATA_CREATE="${CB_STRATA_CREATE:-${CB_CREATE:-$HERE/create-tuned.sql}}"
while [ $# -gt 0 ]; do
    case "$1" in
        --tsv) TSV=$2 ;; --rows) ROWS=$2 ;; --seed) SEED=$2 ;; --systems) SYSTEMS=$2 ;;
        --build) BUILD=$2 ;; --out) OUT=$2 ;; --tries) TRIES=$2 ;; --strata-create) STRATA_CREATE=$2 ;;
        *) echo "usage: $0 [--tsv FILE | --rows N] [--seed S] [--systems LIST] [--build DIR] [--out DIR] [--tries N] [--strata-create FILE]" >&2; exit 2 ;;
    esac
    shift 2
done
WORK=${CB_WORK:-/tmp/strata-compare-$$}
NODE_DIR=${CB_NODE_DIR:-$HOME/.cache/strata-clickbench-runners}
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
mkdir -p "$WORK" "$OUT"
chmod 755 "$WORK"

has() { case " $SYSTEMS " in *" $1 "*) return 0 ;; esac; return 1; }

if [ -z "$TSV" ]; then
    if [ ! -d "$BUILD" ]; then meson setup "$BUILD" "$ROOT" >/dev/null || exit 1; fi
    ninja -C "$BUILD" clickbench/hitsgen >/dev/null || exit 1
    TSV="$WORK/hits.tsv"
    cb_log "generating $ROWS rows (seed $SEED)"
    "$BUILD/clickbench/hitsgen" --rows "$ROWS" --seed "$SEED" --out "$TSV" || exit 1
fi
TSV=$(cd "$(dirname "$TSV")" && pwd)/$(basename "$TSV")

# ---- PostgreSQL 15 ---------------------------------------------------------
PG_DIR="$WORK/pg" PG_PORT="" PG_USER=postgres
as_pg() { if cb_is_root; then su postgres -c "$*"; else sh -c "$*"; fi; }
pg_ctl_() { as_pg "$PGBIN/pg_ctl -D '$PG_DIR/data' -l '$PG_DIR/log' -w $*" >/dev/null; }
pg_restart() { cb_is_root || return 0; pg_ctl_ restart -m fast; cb_wait_psql "$PG_DIR" "$PG_PORT" "$PG_USER" test 60; }
pg_stop() { [ -f "$PG_DIR/data/postmaster.pid" ] && pg_ctl_ stop -m fast; }

run_postgresql() {
    cb_is_root || PG_USER=$(id -un)
    mkdir -p "$PG_DIR"
    cb_is_root && chown postgres "$PG_DIR"
    as_pg "$PGBIN/initdb --locale=C -E UTF8 -U $PG_USER -D '$PG_DIR/data'" >/dev/null || return 1
    PG_PORT=$(cb_free_port)
    local mem_kb cpus
    mem_kb=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)
    cpus=$(nproc)
    # ClickBench's PostgreSQL settings (postgresql/install)
    cat >> "$PG_DIR/data/postgresql.conf" <<EOF
port = $PG_PORT
listen_addresses = ''
unix_socket_directories = '$PG_DIR'
shared_buffers = $((mem_kb / 4))kB
effective_cache_size = $((mem_kb - mem_kb / 4))kB
max_worker_processes = $((cpus + 15))
max_parallel_workers = $cpus
max_parallel_maintenance_workers = $((cpus / 2))
max_parallel_workers_per_gather = $((cpus / 2))
max_wal_size = 32GB
work_mem = 64MB
EOF
    pg_ctl_ start || return 1
    local P=(psql -X -h "$PG_DIR" -p "$PG_PORT" -U "$PG_USER" -v ON_ERROR_STOP=1)
    "${P[@]}" -d postgres -qc 'CREATE DATABASE test' || return 1
    "${P[@]}" -d test -q -f "$HERE/create.sql" || return 1
    cb_log "PostgreSQL: loading"
    local start load size
    start=$(date +%s.%N)
    "${P[@]}" -d test -q <<EOF || return 1
BEGIN;
TRUNCATE TABLE hits;
\copy hits FROM '$TSV' with freeze
COMMIT;
VACUUM ANALYZE hits;
EOF
    sync
    load=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
    cb_log "PostgreSQL: load time $load s"
    cb_run_queries "$HERE/queries.sql" "$WORK/postgresql-out" pg_restart "$PG_DIR" "$PG_PORT" "$PG_USER" test "$TRIES"
    size=$(du -bcs "$PG_DIR/data" | tail -1 | cut -f1)
    cb_write_json "$OUT/postgresql.json" "PostgreSQL 15" "$load" "$size" "$WORK/postgresql-out/times.txt" \
        '["C", "row-oriented", "PostgreSQL compatible", "lukewarm-cold-run"]'
    pg_stop
}

# ---- DuckDB and ClickHouse (embedded, through Node) ------------------------
run_node() { # run_node duckdb|chdb QUERIES RESULT
    mkdir -p "$NODE_DIR"
    cp "$HERE/runners/package.json" "$HERE/runners/run.mjs" "$NODE_DIR/"
    if [ ! -d "$NODE_DIR/node_modules" ] || ! cmp -s "$HERE/runners/package.json" "$NODE_DIR/.installed"; then
        (cd "$NODE_DIR" && npm install --no-audit --no-fund >/dev/null 2>&1) || { cb_log "npm install failed: skipping $1"; return 1; }
        cp "$HERE/runners/package.json" "$NODE_DIR/.installed"
    fi
    rm -rf "$WORK/$1-db"
    cb_log "$1: loading and querying"
    local timev=()
    [ -x /usr/bin/time ] && timev=(/usr/bin/time -f "peak RSS %M kB" -o "$WORK/$1.rss")
    # a fresh engine process per query (cold first tries) where caches can be dropped
    local restart=0
    cb_is_root && [ "${CB_COLD:-1}" != 0 ] && restart=1
    "${timev[@]}" node "$NODE_DIR/run.mjs" "$1" --tsv "$TSV" --create "$HERE/create.sql" --queries "$2" \
        --db "$WORK/$1-db" --out "$3" --tries "$TRIES" --restart "$restart" 2> "$WORK/$1.log"
    local rc=$?
    [ -f "$WORK/$1.rss" ] && cb_log "$1: $(tail -1 "$WORK/$1.rss") (the node process: load and queries)"
    grep -v '^Q[0-9]* \[' "$WORK/$1.log" | head -20 >&2
    rm -rf "$WORK/$1-db"
    return $rc
}

# ---- run -------------------------------------------------------------------
# The systems run one after another, in the order --systems lists them (so a
# long PostgreSQL run can go last), never at the same time.
trap pg_stop EXIT
for sys in $SYSTEMS; do
    case "$sys" in
        postgresql) run_postgresql || cb_log "PostgreSQL run failed"; pg_stop ;;
        duckdb) run_node duckdb "$HERE/runners/duckdb-queries.sql" "$OUT/duckdb.json" ;;
        clickhouse) run_node chdb "$HERE/runners/clickhouse-queries.sql" "$OUT/clickhouse.json" ;;
        strata)
            CB_WORK="$WORK/strata" "$HERE/benchmark.sh" --tsv "$TSV" --build "$BUILD" --out "$OUT/strata.json" \
                --create "$STRATA_CREATE" ||
                cb_log "Strata run failed" ;;
        *) cb_log "unknown system: $sys" ;;
    esac
done

# ---- check and report ------------------------------------------------------
STATUS=0
if has strata && has postgresql; then
    python3 "$HERE/lib/cbcheck.py" --queries "$HERE/queries.sql" \
        --expected "$WORK/postgresql-out" --actual "$WORK/strata/strata-out" || STATUS=1
fi
python3 "$HERE/lib/report.py" --svg "$OUT/compare.svg" "$OUT"/*.json
cb_log "work files: $WORK"
exit $STATUS
