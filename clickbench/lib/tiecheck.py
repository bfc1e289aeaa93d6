#!/usr/bin/env python3
"""tiecheck.py: a stronger check, for the queries where cbcheck.py can only
compare the row count or the ORDER BY key sequence (tied rows at a LIMIT cut,
and Q17's "any 10 groups"): is every row a system returned a real row of the
query's full result? At 10M generated rows Q38-Q41 return a page of rows that
all tie (count 1 or 2), so cbcheck.py alone would accept any 10 rows with the
right counts; this asks PostgreSQL.

  tiecheck.py QUERIES.sql OUTDIR PGHOST PGPORT DB Q...

OUTDIR holds the system's qNN.out (psql -A -t, 0x1f-separated, as
lib/common.sh writes them). For each 0-based query number Q, runs the query
without its ORDER BY / LIMIT / OFFSET tail in PostgreSQL, filtered on the
first output column's values found in the system's rows (a filter on a
GROUP BY column, so PostgreSQL applies it before grouping), and looks every
returned row up in that result. Exit 0 when all rows are found, 1 otherwise.
"""
import re
import subprocess
import sys

SEP = "\x1f"


def check(sql, rows, psql):
    """Rows of `rows` that are not rows of the unlimited result of `sql`."""
    inner = re.split(r"\s+ORDER BY\s+|\s+LIMIT\s+", sql.strip().rstrip(";"), maxsplit=1)[0]
    lits = ",".join("'" + v.replace("'", "''") + "'" for v in sorted({r[0] for r in rows}))
    cols = ",".join("c%d" % i for i in range(1, len(rows[0]) + 1))
    q = "SELECT * FROM (%s) s(%s) WHERE s.c1::text IN (%s)" % (inner, cols, lits)
    out = subprocess.run(psql + ["-c", q], capture_output=True, text=True, check=True)
    full = {tuple(line.split(SEP)) for line in out.stdout.split("\n") if line}
    return [r for r in rows if tuple(r) not in full]


def main():
    if len(sys.argv) < 7:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    queries = open(sys.argv[1], encoding="utf-8").read().split("\n")
    outdir, host, port, db = sys.argv[2:6]
    psql = ["psql", "-X", "-q", "-A", "-t", "-F", SEP, "-v", "ON_ERROR_STOP=1",
            "-h", host, "-p", port, "-U", "postgres", "-d", db]
    bad = 0
    for q in map(int, sys.argv[6:]):
        with open("%s/q%02d.out" % (outdir, q), encoding="utf-8") as f:
            rows = [line.split(SEP) for line in f.read().split("\n") if line]
        if not rows:
            print("Q%d: no rows" % q)
            continue
        missing = check(queries[q], rows, psql)
        print("Q%d: %d of %d rows are rows of PostgreSQL's full result%s" % (
            q, len(rows) - len(missing), len(rows), "; not found: %r" % missing[:3] if missing else ""))
        bad += bool(missing)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
