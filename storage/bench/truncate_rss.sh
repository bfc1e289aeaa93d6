#!/bin/bash
# storage/bench/truncate_rss.sh BUILD [ROWS]: RSS and data directory size of a Strata server
# before and after TRUNCATE of a ROWS-row table (default 5,000,000), then 1000 inserts, kill -9,
# restart (figure in storage/README.md "TRUNCATE and bulk loads"). Prints figures, not a test.
B=${1:?usage: truncate_rss.sh BUILD [ROWS]}; N=${2:-5000000}; D=/tmp/strata-truncate-rss-$$; P=55461
rm -rf $D; $B/protocol/strata -D $D -p $P >/tmp/strata-truncate-rss.log 2>&1 & PID=$!
for i in $(seq 50); do psql -X -q -h 127.0.0.1 -p $P -U postgres -d postgres -c "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
q() { psql -X -q -t -A -h 127.0.0.1 -p $P -U postgres -d postgres -c "$1"; }
st() { printf '%-34s RSS %4d MB  data dir %6.1f MB  (runs %6.1f MB, wal %6.1f MB)  %s\n' "$1" \
  $(( $(awk '/VmRSS/{print $2}' /proc/$PID/status) / 1024 )) \
  $(du -sb $D | awk '{print $1/1048576}') \
  $(cat $D/checkpoint/*.run 2>/dev/null | wc -c | awk '{print $1/1048576}') \
  $(du -sb $D/wal | awk '{print $1/1048576}') "$2"; }
q "create table t(a bigint, b bigint, c integer, d double precision, e bigint)"
q "insert into t select i, i*2, (i%1000)::int, i/3.0, i%7 from generate_series(1,$N) i"
q "checkpoint"
st "loaded $N rows + CHECKPOINT" "count $(q 'select count(*) from t')"
T0=$(date +%s.%N); q "truncate t"; T1=$(date +%s.%N)
sleep 0.5
st "TRUNCATE ($(awk -v a=$T0 -v b=$T1 'BEGIN{printf "%.3f s", b-a}'))" "count $(q 'select count(*) from t')"
sleep 3
st "after the checkpoint it asks for" ""
q "insert into t select i, i, 1, 1, 1 from generate_series(1,1000) i"
kill -9 $PID; wait $PID 2>/dev/null
$B/protocol/strata -D $D -p $P >>/tmp/strata-truncate-rss.log 2>&1 & PID=$!
for i in $(seq 50); do psql -X -q -h 127.0.0.1 -p $P -U postgres -d postgres -c "select 1" >/dev/null 2>&1 && break; sleep 0.2; done
st "1000 rows inserted, kill -9, restart" "count $(q 'select count(*) from t') sum $(q 'select sum(a) from t')"
kill $PID; wait $PID 2>/dev/null; rm -rf $D
