# clickbench/lib/common.sh: bash functions shared by benchmark.sh, compare.sh
# and tests/clickbench/run.sh (sourced, not executed).
#
# A "system" is driven through psql: cb_run_queries runs every line of a
# queries file three times, restarting the server (a function the caller
# names) and dropping the OS page cache before the first try, records psql's
# \timing of each try in seconds (null on error), and keeps the first try's
# rows (unaligned, fields separated by 0x1f) for the result checks.

CB_SEP=$'\x1f'

cb_log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# cb_free_port: prints a TCP port that was free a moment ago.
cb_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# cb_is_root: true when dropping caches is allowed.
cb_is_root() { [ "$(id -u)" = 0 ]; }

# cb_drop_caches: sync and drop the page cache when running as root
# (silently a no-op otherwise, or where /proc/sys is read-only).
cb_drop_caches() {
    sync
    if cb_is_root; then echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true; fi
}

# cb_wait_psql HOST PORT USER DB [SECONDS]: waits until the server answers.
cb_wait_psql() {
    local i
    for i in $(seq 1 $((${5:-30} * 10))); do
        psql -X -h "$1" -p "$2" -U "$3" -d "$4" -qAtc 'SELECT 1' >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    return 1
}

# cb_psql_timed HOST PORT USER DB SQL OUTFILE: runs SQL in a new psql session
# with \timing; writes the rows to OUTFILE and prints the elapsed seconds,
# or "null" when the query failed (its error goes to OUTFILE.err).
cb_psql_timed() {
    local raw ms
    raw=$(printf '\\timing on\n%s\n' "$5" |
        psql -X -q -A -t -F "$CB_SEP" -v ON_ERROR_STOP=1 -h "$1" -p "$2" -U "$3" -d "$4" 2>"$6.err")
    if [ $? -ne 0 ]; then
        printf '%s\n' "$raw" > "$6"
        echo null
        return
    fi
    ms=$(printf '%s\n' "$raw" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
    raw=$(printf '%s\n' "$raw" | grep -v '^Time: [0-9.]* ms')
    if [ -n "$raw" ]; then printf '%s\n' "$raw" > "$6"; else : > "$6"; fi
    rm -f "$6.err"
    if [ -z "$ms" ]; then echo null; else awk -v m="$ms" 'BEGIN { printf "%.4f\n", m / 1000 }'; fi
}

# cb_run_queries QUERIES OUTDIR RESTART_FN HOST PORT USER DB [TRIES]:
# runs each query TRIES (default 3) times; before the first try calls
# RESTART_FN (which restarts the server and waits for it; may be ":") and
# drops caches (neither when CB_COLD=0: all tries warm, for a shared machine
# where `sync` + drop_caches stall everyone). Writes OUTDIR/qNN.out (rows of the first successful try)
# and OUTDIR/times.txt (one "[t1,t2,t3]" line per query).
cb_run_queries() {
    local queries=$1 out=$2 restart=$3 host=$4 port=$5 user=$6 db=$7 tries=${8:-3}
    local n=0 q t k row nn
    mkdir -p "$out"
    : > "$out/times.txt"
    while IFS= read -r q; do
        [ -z "$q" ] && continue
        nn=$(printf '%02d' "$n")
        if [ "${CB_COLD:-1}" != 0 ]; then
            "$restart"
            cb_drop_caches
        fi
        row=""
        # CB_TRIES_FILE: a file holding a number that overrides TRIES for the
        # queries not started yet (shortens a long run without restarting it;
        # a report must say so)
        [ -n "${CB_TRIES_FILE:-}" ] && [ -s "$CB_TRIES_FILE" ] && tries=$(tr -dc 0-9 < "$CB_TRIES_FILE")
        for k in $(seq 1 "$tries"); do
            t=$(cb_psql_timed "$host" "$port" "$user" "$db" "$q" "$out/q$nn.try$k")
            row="$row${row:+,}$t"
        done
        mv "$out/q$nn.try1" "$out/q$nn.out"
        [ -f "$out/q$nn.try1.err" ] && mv "$out/q$nn.try1.err" "$out/q$nn.err"
        rm -f "$out"/q"$nn".try*
        echo "[$row]" >> "$out/times.txt"
        cb_log "Q$n [$row]"
        n=$((n + 1))
    done < "$queries"
}

# cb_write_json FILE SYSTEM LOAD_TIME DATA_SIZE TIMES_FILE [TAGS_JSON [TUNED]]:
# a result file in ClickBench's format (TUNED: "yes" for a tuned entry, default "no").
cb_write_json() {
    {
        printf '{\n    "system": "%s",\n    "date": "%s",\n    "machine": "%s",\n' \
            "$2" "$(date -u +%Y-%m-%d)" "$(nproc) vCPU $(hostname)"
        printf '    "cluster_size": 1,\n    "proprietary": "no",\n    "hardware": "cpu",\n'
        printf '    "tuned": "%s",\n    "tags": %s,\n' "${7:-no}" "${6:-[\"C\", \"column-oriented\", \"PostgreSQL compatible\"]}"
        printf '    "load_time": %s,\n    "data_size": %s,\n\n    "result": [\n' "$3" "$4"
        sed '$!s/$/,/' "$5"
        printf '    ]\n}\n'
    } > "$1"
}
