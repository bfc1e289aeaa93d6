#!/bin/bash
# storage/bench/copy_load.sh BUILD TSV LABEL [perf]: COPY load figures of
# ClickBench's hits (executor/README.md "COPY's memory and threads"): a
# fresh server on a free port, clickbench/create-tuned.sql, one server-side
# COPY hits FROM TSV (absolute path); prints the COPY's wall time, the
# server's CPU (utime+stime of all its threads) over it, its peak RSS
# (VmHWM), RSS right after, the CHECKPOINT's time, the data directory size
# and a count/sum check. With `perf`, records the server during the COPY
# (perf record -e cpu-clock -g) into /tmp/copy_load-LABEL.perf.
# Environment: COPY_LOAD_BLOCK=1 runs `BEGIN; COPY ...; COMMIT;` (one
# session; the time and CPU include the COMMIT) instead of an autocommit
# COPY; COPY_LOAD_CREATE=FILE (relative to the repository) picks the table
# definition (default clickbench/create-tuned.sql; clickbench/create.sql has
# no primary key).
set -u
BUILD=$1 TSV=$2 LABEL=$3 PERF=${4:-}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${COPY_LOAD_WORK:-/tmp/copy_load}
DATA=$WORK/data-$LABEL PORT=$((54000 + RANDOM % 900))
mkdir -p "$WORK" && rm -rf "$DATA"
"$BUILD/protocol/strata" -D "$DATA" -p $PORT -h 127.0.0.1 -k "$WORK" > "$WORK/$LABEL.log" 2>&1 &
SP=$!
for _ in $(seq 100); do psql -X -h 127.0.0.1 -p $PORT -U postgres -c 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
PSQL="psql -X -q -h 127.0.0.1 -p $PORT -U postgres -v ON_ERROR_STOP=1"
$PSQL -f "$ROOT/${COPY_LOAD_CREATE:-clickbench/create-tuned.sql}"
cpu() { awk '{print $14 + $15}' /proc/$SP/stat; }
c0=$(cpu); t0=$(date +%s.%N)
if [ -n "$PERF" ]; then
    perf record -e cpu-clock -g -p $SP -o "/tmp/copy_load-$LABEL.perf" 2>/dev/null & PP=$!
    sleep 0.5
fi
if [ "${COPY_LOAD_BLOCK:-0}" = 1 ]; then
    $PSQL -c BEGIN -c "COPY hits FROM '$TSV'" -c COMMIT
else
    $PSQL -c "COPY hits FROM '$TSV'"
fi
t1=$(date +%s.%N); c1=$(cpu)
if [ -n "$PERF" ]; then kill -INT $PP; wait $PP; fi
hwm=$(awk '/VmHWM/{print $2}' /proc/$SP/status); rss=$(awk '/VmRSS/{print $2}' /proc/$SP/status)
t2=$(date +%s.%N); $PSQL -c CHECKPOINT; t3=$(date +%s.%N)
chk=$($PSQL -At -c "select count(*), sum(length(URL)), sum(UserID % 1000) from hits")
echo "$LABEL: COPY$([ "${COPY_LOAD_BLOCK:-0}" = 1 ] && echo ' in BEGIN/COMMIT') wall $(echo "$t1 - $t0" | bc) s, server CPU $(echo "($c1 - $c0) / 100" | bc -l | cut -c1-6) s," \
     "VmHWM $((hwm / 1024)) MB, RSS after COPY $((rss / 1024)) MB, CHECKPOINT $(echo "$t3 - $t2" | bc) s," \
     "du $(du -sm "$DATA" | cut -f1) MB, check $chk, load $(cut -d' ' -f1 /proc/loadavg)"
kill $SP; wait $SP
