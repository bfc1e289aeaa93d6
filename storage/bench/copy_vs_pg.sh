#!/bin/bash
# storage/bench/copy_vs_pg.sh: issue 3's storage benchmarks against PostgreSQL
# 15, on the same file, the same machine, in the same run. Prints figures; it
# is not a test (nothing here passes or fails on a number).
#
#   copy_vs_pg.sh load [--rows N] [--tries T] [--build DIR]     benchmark (b)
#   copy_vs_pg.sh size [--rows N] [--build DIR]                 benchmark (f)
#
# (b) load: one file of N rows (default 10,000,000) of a 10-column table
#     (bigint, integer, bigint, smallint, double precision, date, timestamp,
#     boolean, two texts), made once with psql \copy (SELECT ... FROM
#     generate_series) from PostgreSQL; then T rounds (default 3), each a fresh
#     table and `COPY t10 FROM '<file>'` (server-side, autocommit: the time
#     includes the commit's fsync) into Strata, then into PostgreSQL, so both
#     see the same machine load. Prints per try and the medians: seconds,
#     rows/s, MB/s (file bytes / s), and Strata / PostgreSQL.
# (f) size: N rows (default 1,000,000) of clickbench/hitsgen (seed 1) loaded
#     with COPY into clickbench/create.sql's `hits` on both; Strata then runs
#     CHECKPOINT and the bytes of its run files (checkpoint/*.run) are divided
#     by N; PostgreSQL's pg_total_relation_size('hits') (after CHECKPOINT and
#     VACUUM) likewise.
#
# Both servers run with their default durability (fsync on). PostgreSQL 15 is
# the Debian package ($PGBIN, default /usr/lib/postgresql/15/bin), initdb
# --locale=C -E UTF8, its default settings, on a Unix socket in the work dir;
# run as root (the server runs as the postgres user). Strata is
# $BUILD/protocol/strata (build it with -Dbuildtype=release for figures).
# Work files: $BENCH_WORK (default /tmp/strata-bench-copy-PID), removed at the end
# unless BENCH_KEEP=1.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MODE=${1:-}
shift || true
ROWS="" TRIES=3 BUILD="${BENCH_BUILD:-$ROOT/build}"
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) ROWS=$2 ;; --tries) TRIES=$2 ;; --build) BUILD=$2 ;;
        *) MODE=usage ;;
    esac
    shift 2
done
case "$MODE" in
    load) ROWS=${ROWS:-10000000} ;;
    size) ROWS=${ROWS:-1000000} ;;
    *) echo "usage: $0 load|size [--rows N] [--tries T] [--build DIR]" >&2; exit 2 ;;
esac
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
STRATA="$BUILD/protocol/strata"
[ -x "$STRATA" ] || { echo "no $STRATA: ninja -C $BUILD protocol/strata" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "run as root (PostgreSQL runs as the postgres user)" >&2; exit 1; }
WORK=${BENCH_WORK:-/tmp/strata-bench-copy-$$}
mkdir -p "$WORK"
chmod 755 "$WORK"

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# ---- servers ----------------------------------------------------------------
PG_PORT=$(free_port) ST_PORT=$(free_port) ST_PID=""
PSQL_PG=(psql -X -q -v ON_ERROR_STOP=1 -h "$WORK/pg" -p "$PG_PORT" -U postgres -d postgres)
PSQL_ST=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$ST_PORT" -U postgres -d postgres)
pg_ctl_() { su postgres -c "$PGBIN/pg_ctl -D '$WORK/pg/data' -l '$WORK/pg/log' -w $*" >/dev/null; }
cleanup() {
    [ -n "$ST_PID" ] && { kill "$ST_PID" 2>/dev/null; wait "$ST_PID" 2>/dev/null; }
    [ -f "$WORK/pg/data/postmaster.pid" ] && pg_ctl_ stop -m fast
    [ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT
start_servers() {
    mkdir -p "$WORK/pg" && chown postgres "$WORK/pg" && chmod 700 "$WORK/pg"
    su postgres -c "$PGBIN/initdb --locale=C -E UTF8 -U postgres -D '$WORK/pg/data'" >/dev/null 2>&1 || exit 1
    printf "port = %s\nlisten_addresses = ''\nunix_socket_directories = '%s'\n" "$PG_PORT" "$WORK/pg" >> "$WORK/pg/data/postgresql.conf"
    pg_ctl_ start || { log "PostgreSQL did not start"; exit 1; }
    "$STRATA" -D "$WORK/strata" -p "$ST_PORT" -h 127.0.0.1 -k "$WORK" >> "$WORK/strata.log" 2>&1 &
    ST_PID=$!
    local i
    for i in $(seq 1 300); do "${PSQL_ST[@]}" -Atc 'SELECT 1' >/dev/null 2>&1 && return 0; sleep 0.1; done
    log "Strata did not start (see $WORK/strata.log)"
    exit 1
}

# timed_sql SYSTEM SQL: runs SQL in a new psql session; prints the wall seconds.
timed_sql() {
    local t0
    t0=$(now)
    if [ "$1" = strata ]; then "${PSQL_ST[@]}" -c "$2" >/dev/null || return 1
    else "${PSQL_PG[@]}" -c "$2" >/dev/null || return 1; fi
    elapsed "$t0"
}
# cpu_s PID: user and system CPU seconds of a process so far ("u s").
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f %.2f", $14 / hz, $15 / hz }' "/proc/$1/stat"; }
# pg_copy_cpu FILE: COPY into PostgreSQL's t10; prints the wall seconds and
# leaves the backend's CPU ticks ("utime stime") before and after in
# $WORK/cpu0 and $WORK/cpu1 (read through psql's \! while the session lives;
# PostgreSQL's background processes, e.g. the WAL writer, are not counted).
pg_copy_cpu() {
    local t0
    t0=$(now)
    "${PSQL_PG[@]}" -v file="$1" -v out="$WORK" >/dev/null <<'EOF' || return 1
SELECT pg_backend_pid() AS bpid \gset
\setenv BPID :bpid
\setenv OUT :out
\! awk '{ print $14, $15 }' /proc/$BPID/stat > $OUT/cpu0
COPY t10 FROM :'file';
\! awk '{ print $14, $15 }' /proc/$BPID/stat > $OUT/cpu1
EOF
    elapsed "$t0"
}
count() { if [ "$1" = strata ]; then "${PSQL_ST[@]}" -Atc "$2"; else "${PSQL_PG[@]}" -Atc "$2"; fi; }

# ---- (b) COPY load ------------------------------------------------------------
T10_DDL="CREATE TABLE t10 (id bigint NOT NULL, a integer, b bigint, c smallint, d double precision,
  e date, f timestamp, g boolean, h text, i text)"
T10_SELECT="SELECT i, (i * 7919 % 100003)::int, i * 2654435761 % 1000000007, (i % 30000)::smallint,
  (i % 1000003) / 7.0, date '2020-01-01' + (i % 1500)::int,
  timestamp '2020-01-01' + (i % 31536000) * interval '1 second', i % 3 = 0,
  'user_' || (i % 100000), substr(md5(i::text), 1, 8 + (i % 25)::int)
  FROM generate_series(1::bigint, $ROWS) AS s(i)"

run_load() {
    local file="$WORK/t10.tsv" bytes k sys t rows
    log "generating $ROWS rows of t10 with PostgreSQL"
    "${PSQL_PG[@]}" -c "\\copy ($T10_SELECT) TO '$file'" || exit 1
    chmod 644 "$file"
    bytes=$(stat -c %s "$file")
    echo "(b) file: $ROWS rows, $bytes bytes ($(awk -v b="$bytes" -v n="$ROWS" 'BEGIN { printf "%.1f", b / n }') B/row); load average at start: $(loadavg)"
    : > "$WORK/times.strata"; : > "$WORK/times.pg"; : > "$WORK/cpu.strata"; : > "$WORK/cpu.pg"
    for k in $(seq 1 "$TRIES"); do
        for sys in strata pg; do
            timed_sql $sys "DROP TABLE IF EXISTS t10" >/dev/null 2>&1 || exit 1
            timed_sql $sys "$T10_DDL" >/dev/null || exit 1
            sync
            local cpu
            if [ $sys = strata ]; then
                local c0 c1
                c0=$(cpu_s "$ST_PID")
                t=$(timed_sql $sys "COPY t10 FROM '$file'") || { log "$sys: COPY failed"; exit 1; }
                c1=$(cpu_s "$ST_PID")
                cpu=$(echo "$c0 $c1" | awk '{ printf "%.2f %.2f", $3 - $1, $4 - $2 }')
            else
                t=$(pg_copy_cpu "$file") || { log "$sys: COPY failed"; exit 1; }
                cpu=$(cat "$WORK/cpu0" "$WORK/cpu1" | tr '\n' ' ' |
                    awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f %.2f", ($3 - $1) / hz, ($4 - $2) / hz }')
            fi
            echo "$cpu" | awk '{ print $1 + $2 }' >> "$WORK/cpu.$sys"
            rows=$(count $sys "SELECT count(*) FROM t10")
            [ "$rows" = "$ROWS" ] || { log "$sys: $rows rows loaded, expected $ROWS"; exit 1; }
            echo "$t" >> "$WORK/times.$sys"
            printf '(b) try %d %-6s COPY %7.3f s  %7.0f rows/s  %5.1f MB/s  CPU user %s s sys %s s  (load average %s)\n' \
                "$k" "$sys" "$t" "$(awk -v n="$ROWS" -v t="$t" 'BEGIN { print n / t }')" \
                "$(awk -v b="$bytes" -v t="$t" 'BEGIN { print b / t / 1e6 }')" ${cpu% *} ${cpu#* } "$(loadavg)"
        done
        timed_sql strata "DROP TABLE t10" >/dev/null; timed_sql strata "CHECKPOINT" >/dev/null
        timed_sql pg "DROP TABLE t10" >/dev/null
    done
    local ts tp rr cs cp
    ts=$(median < "$WORK/times.strata"); tp=$(median < "$WORK/times.pg")
    rr=$(paste "$WORK/times.pg" "$WORK/times.strata" | awk '{ print $1 / $2 }' | median)
    cs=$(median < "$WORK/cpu.strata"); cp=$(median < "$WORK/cpu.pg")
    awk -v n="$ROWS" -v b="$bytes" -v ts="$ts" -v tp="$tp" -v k="$TRIES" -v rr="$rr" -v cs="$cs" -v cp="$cp" 'BEGIN {
        printf "(b) COPY %d rows x 10 columns (%.0f MB), median of %d: Strata %.2f s = %.0f rows/s, %.1f MB/s; PostgreSQL 15 %.2f s = %.0f rows/s, %.1f MB/s; Strata/PostgreSQL throughput %.2fx (median of the per-round ratios %.2fx)\n",
            n, b / 1e6, k, ts, n / ts, b / ts / 1e6, tp, n / tp, b / tp / 1e6, tp / ts, rr
        printf "(b) CPU per COPY (median): Strata server process %.2f s = %.0f rows per CPU-second; PostgreSQL backend %.2f s = %.0f rows per CPU-second; ratio %.2fx\n",
            cs, n / cs, cp, n / cp, cp / cs }'
    echo "(b) load average at end: $(loadavg)"
}

# ---- (f) bytes per row of hits -------------------------------------------------
run_size() {
    local file="$WORK/hits.tsv" t runs st_dir pg_rel tsv_bytes
    [ -x "$BUILD/clickbench/hitsgen" ] || { echo "no $BUILD/clickbench/hitsgen" >&2; exit 1; }
    "$BUILD/clickbench/hitsgen" --rows "$ROWS" --seed 1 --out "$file" || exit 1
    chmod 644 "$file"
    tsv_bytes=$(stat -c %s "$file")
    echo "(f) hits: $ROWS rows (hitsgen --seed 1), TSV $tsv_bytes bytes; load average at start: $(loadavg)"
    for sys in strata pg; do
        count $sys "SELECT 1" >/dev/null
        if [ $sys = strata ]; then "${PSQL_ST[@]}" -f "$ROOT/clickbench/create.sql" || exit 1
        else "${PSQL_PG[@]}" -f "$ROOT/clickbench/create.sql" || exit 1; fi
        t=$(timed_sql $sys "COPY hits FROM '$file'") || { log "$sys: COPY failed"; exit 1; }
        echo "(f) $sys: COPY $t s"
    done
    timed_sql strata "CHECKPOINT" >/dev/null || exit 1
    runs=$(find "$WORK/strata/checkpoint" -name '*.run' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    st_dir=$(du -bs "$WORK/strata" | cut -f1)
    timed_sql pg "VACUUM hits" >/dev/null; timed_sql pg "CHECKPOINT" >/dev/null
    pg_rel=$(count pg "SELECT pg_total_relation_size('hits')")
    awk -v n="$ROWS" -v r="$runs" -v d="$st_dir" -v p="$pg_rel" -v f="$tsv_bytes" 'BEGIN {
        printf "(f) bytes per row, hits, %d rows: Strata run files %.1f (%d bytes; whole data directory after CHECKPOINT %.1f), PostgreSQL 15 pg_total_relation_size %.1f (%d bytes), TSV %.1f; PostgreSQL/Strata %.2fx\n",
            n, r / n, r, d / n, p / n, p, f / n, p / r }'
    echo "(f) load average at end: $(loadavg)"
}

start_servers
echo "commit: $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) (+ working tree); $(nproc) cores; Strata $STRATA"
case "$MODE" in
    load) run_load ;;
    size) run_size ;;
esac
