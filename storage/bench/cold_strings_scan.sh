#!/bin/bash
# cold_strings_scan.sh — string scans on two servers side by side, alternating
# query by query (the machine's load hits both alike): BEFORE_BUILD (strings
# resident) and AFTER_BUILD (strings cold), each loaded with the same TSV
# into clickbench/create.sql's hits, then CHECKPOINT; each query 5 times
# (psql \timing: the first cold run decodes, the rest hit the chunk cache).
# storage/README.md "Cold chunks" quotes it (session "coldstr"). Run as root:
#   storage/bench/cold_strings_scan.sh BEFORE_BUILD AFTER_BUILD /tmp/hits-1m.tsv
B1=$1; B2=$2; TSV=$3
CREATE="$(cat "$(dirname "$0")/../../clickbench/create.sql")"
start() { # build label port
  rm -rf /tmp/coldstr-t-$2; $1/protocol/strata -D /tmp/coldstr-t-$2 -p $3 -h 127.0.0.1 -k /tmp > /tmp/coldstr-t-$2.log 2>&1 &
  echo $! > /tmp/coldstr-t-$2.pid
  for i in $(seq 50); do psql -h 127.0.0.1 -p $3 -U postgres -c 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
  psql -h 127.0.0.1 -p $3 -U postgres -X -q -c "$CREATE" -c "copy hits from '$TSV'" -c checkpoint; }
start "$B1" head 55494
start "$B2" cold 55495
for q in "select count(*) from hits where URL like '%google%'" "select sum(length(Title)) from hits" "select count(distinct SearchPhrase) from hits" ; do
  for label in head:55494 cold:55495; do
    p=${label#*:}; l=${label%:*}
    ts=$(psql -h 127.0.0.1 -p $p -U postgres -X -q -c '\timing on' -c "$q" -c "$q" -c "$q" -c "$q" -c "$q" | grep '^Time' | awk '{printf "%s ", $2}')
    echo "$l | $q | ms: $ts | RssAnon $(awk '/RssAnon/{print int($2/1024)}' /proc/$(cat /tmp/coldstr-t-$l.pid)/status) MB"
  done
done
for l in head cold; do kill $(cat /tmp/coldstr-t-$l.pid); done; sleep 1; rm -rf /tmp/coldstr-t-head /tmp/coldstr-t-cold
