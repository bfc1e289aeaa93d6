#!/bin/bash
# storage/bench/copy_wal.sh BUILD FILE LABEL [PRE]: one server-side COPY of FILE (copy_vs_pg.sh's
# t10 file, BENCH_KEEP=1) into a fresh Strata: its time, the WAL and run bytes right after it, then
# CHECKPOINT's time (figure in storage/README.md). PRE > 0: the table first gets PRE rows by
# INSERT (a table whose rows end mid-group), and the COPY's own WAL bytes are printed too.
# Prints figures, not a test.
B=$1; F=$2; L=$3; PRE=${4:-0}; D=/tmp/strata-copy-wal-$$; P=${COPY_WAL_PORT:-55462}
rm -rf $D; $B/protocol/strata -D $D -p $P >/tmp/strata-copy-wal.log 2>&1 & PID=$!
q() { psql -X -q -t -A -h 127.0.0.1 -p $P -U postgres -d postgres -c "$1"; }
for i in $(seq 50); do q "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
q "create table t10 (id bigint, a integer, b bigint, c smallint, d double precision, e date, f timestamp, g boolean, h text, i text)"
mb() { du -sb "$@" 2>/dev/null | awk '{s+=$1} END {printf "%.1f", s/1048576}'; }
cpu() { awk '{printf "%.2f", ($14+$15)/100}' /proc/$PID/stat; }
walb() { cat $D/wal/*.wal 2>/dev/null | wc -c; }
if [ "$PRE" -gt 0 ]; then
  q "insert into t10 select i, i % 100003, i * 2, (i % 30000)::smallint, i / 7.0, date '2020-01-01' + (i % 1500)::int, timestamp '2020-01-01', i % 3 = 0, 'pre_' || i, 'x' from generate_series(-$PRE::bigint, -1) i"
fi
W0=$(walb)
T0=$(date +%s.%N); q "copy t10 from '$F'"; T1=$(date +%s.%N)
[ "$PRE" -gt 0 ] && echo "$L: $PRE rows inserted first; the COPY's WAL: $(( $(walb) - W0 )) bytes"
echo "$L: COPY $(awk -v a=$T0 -v b=$T1 'BEGIN{printf "%.2f", b-a}') s; right after it: wal/ $(mb $D/wal) MB, run files $(mb $D/checkpoint/*.run) MB, RSS $(awk '/VmRSS/{printf "%d", $2/1024}' /proc/$PID/status) MB, server CPU $(cpu) s"
C0=$(date +%s.%N); q "checkpoint"; C1=$(date +%s.%N)
echo "$L: then CHECKPOINT $(awk -v a=$C0 -v b=$C1 'BEGIN{printf "%.2f", b-a}') s; wal/ $(mb $D/wal) MB, run files $(mb $D/checkpoint/*.run) MB, RSS $(awk '/VmRSS/{printf "%d", $2/1024}' /proc/$PID/status) MB, server CPU $(cpu) s, count $(q 'select count(*) from t10')"
kill $PID; wait $PID 2>/dev/null; rm -rf $D
