#!/bin/bash
# cold_strings_rss.sh — server memory (VmRSS, VmHWM, RssAnon) and string-scan
# times on ClickBench's `hits` (clickbench/create.sql): COPY, CHECKPOINT, two
# string queries (best of 3, through psql), kill -9, restart, the same again.
# storage/README.md "Cold chunks" quotes it (session "coldstr"). Run as root:
#   clickbench/hitsgen --rows 1000000 --seed 1 --out /tmp/hits-1m.tsv
#   storage/bench/cold_strings_rss.sh BUILD LABEL /tmp/hits-1m.tsv PORT
# (BUILD: a meson build dir with protocol/strata; a fresh data directory
# /tmp/coldstr-data-LABEL is created and removed.)
B=$1; L=$2; TSV=$3; P=$4
D=/tmp/coldstr-data-$L; rm -rf $D
$B/protocol/strata -D $D -p $P -h 127.0.0.1 -k /tmp > /tmp/coldstr-srv-$L.log 2>&1 &
PID=$!
for i in $(seq 50); do psql -h 127.0.0.1 -p $P -U postgres -c 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
rss() { awk '/VmRSS|VmHWM|RssAnon/{printf "%s %d MB  ", $1, $2/1024}' /proc/$PID/status; }
Q() { psql -h 127.0.0.1 -p $P -U postgres -X -q -c "$1" >/dev/null; }
T() { # best of 3, ms
  best=""; for i in 1 2 3; do
    t=$( { /usr/bin/time -f %e psql -h 127.0.0.1 -p $P -U postgres -X -q -t -c "$1" > /tmp/coldstr-q-$L.out; } 2>&1 )
    ms=$(echo "$t*1000/1" | bc); [ -z "$best" ] || [ $ms -lt $best ] && best=$ms; done
  echo "$best ms ($(tr -d ' \n' < /tmp/coldstr-q-$L.out))"; }
Q "$(cat "$(dirname "$0")/../../clickbench/create.sql")"
echo "[$L] start: $(rss)"
s=$(date +%s.%N); Q "copy hits from '$TSV'"; e=$(date +%s.%N)
echo "[$L] after COPY ($(echo "$e - $s" | bc | cut -c1-5) s): $(rss)"
Q "checkpoint"; sleep 1
echo "[$L] after CHECKPOINT: $(rss)"
echo "[$L] like google: $(T "select count(*) from hits where URL like '%google%'")"
echo "[$L] sum(length(Title)): $(T "select sum(length(Title)) from hits")"
echo "[$L] after queries: $(rss)"
kill -9 $PID; wait $PID 2>/dev/null
$B/protocol/strata -D $D -p $P -h 127.0.0.1 -k /tmp >> /tmp/coldstr-srv-$L.log 2>&1 &
PID=$!
for i in $(seq 100); do psql -h 127.0.0.1 -p $P -U postgres -c 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
echo "[$L] after kill -9 + restart: $(rss)"
echo "[$L] like google: $(T "select count(*) from hits where URL like '%google%'")"
echo "[$L] sum(length(Title)): $(T "select sum(length(Title)) from hits")"
echo "[$L] after queries: $(rss)"
kill $PID; wait $PID 2>/dev/null
rm -rf $D
