#!/bin/bash
# restart_time.sh — how long a Strata server takes to start on an existing data
# directory ("Start-up time" in storage/README.md).
#
# usage: storage/bench/restart_time.sh BUILD DATADIR PORT [RUNS] [FIRST_SQL]
#
# Per run: starts BUILD/protocol/strata -D DATADIR -p PORT, polls
# `psql -h 127.0.0.1 -p PORT -c 'select 1'` every 20 ms, and prints the wall time
# from exec until it answers, the server's CPU time at that moment (user + sys
# from /proc/PID/stat: on a shared machine the steadier figure), VmHWM, RssAnon,
# RssFile and the load average. With FIRST_SQL, the server CPU and wall time of
# that statement run twice right after (e.g. an INSERT of a present key: the
# first one builds the primary-key index recovery deferred). Then SIGTERM, and
# the next run. The server must not change the directory in a way that
# matters (a restart replays the same checkpoint each time).
set -u
B=$1 D=$2 P=$3 RUNS=${4:-3} FIRST_SQL=${5:-}
tck=$(getconf CLK_TCK)
cpu_ticks() { local st; read -r -a st < "/proc/$1/stat"; echo $((st[13] + st[14])); }
for ((run = 1; run <= RUNS; run++)); do
    t0=$(date +%s.%N)
    "$B/protocol/strata" -D "$D" -p "$P" -k /tmp > "/tmp/restart_time.$P.log" 2>&1 &
    pid=$!
    until psql -h 127.0.0.1 -p "$P" -U postgres -Atc 'select 1' > /dev/null 2>&1; do
        kill -0 $pid 2> /dev/null || { echo "server exited:"; tail -3 "/tmp/restart_time.$P.log"; exit 1; }
        sleep 0.02
    done
    t1=$(date +%s.%N)
    cpu=$(cpu_ticks $pid)
    mem=$(awk '/VmHWM|RssAnon|RssFile/ {printf " %s %d MB", $1, $2 / 1024}' "/proc/$pid/status")
    printf 'run %d: wall %.2f s  cpu %.2f s %s  load %s\n' $run "$(echo "$t1 - $t0" | bc)" \
        "$(echo "scale=2; $cpu / $tck" | bc)" "$mem" "$(cut -d' ' -f1 /proc/loadavg)"
    if [ -n "$FIRST_SQL" ]; then
        for i in 1 2; do
            c0=$(cpu_ticks $pid); s0=$(date +%s.%N)
            psql -h 127.0.0.1 -p "$P" -U postgres -Atc "$FIRST_SQL" > /dev/null 2>&1
            s1=$(date +%s.%N); c1=$(cpu_ticks $pid)
            printf '  statement %d: cpu %d ms  wall %.0f ms\n' $i $(((c1 - c0) * 1000 / tck)) \
                "$(echo "($s1 - $s0) * 1000" | bc)"
        done
    fi
    kill -TERM $pid
    wait $pid
done
