#!/bin/bash
# storage/bench/copy_wal.sh BUILD FILE LABEL: one server-side COPY of FILE (copy_vs_pg.sh's t10
# file, BENCH_KEEP=1) into a fresh Strata: its time, the WAL and run bytes right after it, then
# CHECKPOINT's time (figure in storage/README.md). Prints figures, not a test.
B=$1; F=$2; L=$3; D=/tmp/strata-copy-wal-$$; P=55462
rm -rf $D; $B/protocol/strata -D $D -p $P >/tmp/strata-copy-wal.log 2>&1 & PID=$!
q() { psql -X -q -t -A -h 127.0.0.1 -p $P -U postgres -d postgres -c "$1"; }
for i in $(seq 50); do q "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
q "create table t10 (id bigint, a integer, b bigint, c smallint, d double precision, e date, f timestamp, g boolean, h text, i text)"
mb() { du -sb "$@" 2>/dev/null | awk '{s+=$1} END {printf "%.1f", s/1048576}'; }
cpu() { awk '{printf "%.2f", ($14+$15)/100}' /proc/$PID/stat; }
T0=$(date +%s.%N); q "copy t10 from '$F'"; T1=$(date +%s.%N)
echo "$L: COPY $(awk -v a=$T0 -v b=$T1 'BEGIN{printf "%.2f", b-a}') s; right after it: wal/ $(mb $D/wal) MB, run files $(mb $D/checkpoint/*.run) MB, RSS $(awk '/VmRSS/{printf "%d", $2/1024}' /proc/$PID/status) MB, server CPU $(cpu) s"
C0=$(date +%s.%N); q "checkpoint"; C1=$(date +%s.%N)
echo "$L: then CHECKPOINT $(awk -v a=$C0 -v b=$C1 'BEGIN{printf "%.2f", b-a}') s; wal/ $(mb $D/wal) MB, run files $(mb $D/checkpoint/*.run) MB, RSS $(awk '/VmRSS/{printf "%d", $2/1024}' /proc/$PID/status) MB, server CPU $(cpu) s, count $(q 'select count(*) from t10')"
kill $PID; wait $PID 2>/dev/null; rm -rf $D
