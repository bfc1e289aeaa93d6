#!/bin/sh
# count.sh — the sqllogictest cases per area: files, records, queries with
# results, expected errors, set-up statements. `sh tests/sql/count.sh`.
cd "$(dirname "$0")" || exit 2
printf '%-12s %5s %7s %7s %6s %6s\n' area files records queries errors setup
for area in */; do
    area=${area%/}
    cat "$area"/*.test | awk -v area="$area" -v files="$(ls "$area"/*.test | wc -l)" '
        /^query /           { q++ }
        /^statement error/  { e++ }
        /^statement ok/     { s++ }
        END { printf "%-12s %5d %7d %7d %6d %6d\n", area, files, q + e + s, q, e, s }'
done | awk '{ print; f += $2; r += $3; q += $4; e += $5; s += $6 }
    END { printf "%-12s %5d %7d %7d %6d %6d\n", "total", f, r, q, e, s }'
