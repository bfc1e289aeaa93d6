#!/usr/bin/env python3
"""cbcheck.py: checks a system's answers to ClickBench's 43 queries against
PostgreSQL 15's, as text (psql -A -t output, fields separated by 0x1f).

  cbcheck.py --queries queries.sql --expected DIR --actual DIR

DIR holds qNN.out (NN = 00..42, 0-based like ClickBench's Q0..Q42). Exit 0
when every query matches, 1 otherwise; one line per query either way.

Rows are compared in order, except where the query's ORDER BY leaves ties
(ClickBench: "results differ only in the order of tied rows under LIMIT",
Q17, Q23, Q24, Q31, Q32, Q38-Q41; on generated data any ORDER BY count can
tie, so the rule is applied to every query through its ORDER BY key columns):
  * the row count and the sequence of ORDER BY key values must be equal;
  * rows whose key is strictly inside the returned range are compared as a
    multiset (their set is determined; only their order among equal keys is
    not);
  * rows whose key equals the key at a LIMIT cut (the last row, and the
    first row when there is an OFFSET) may be any of the tied rows: only
    their count is checked (it follows from the key sequence);
  * Q17 (LIMIT without ORDER BY: any 10 groups) checks the row count only;
    Q24 (ordered by EventTime, which it does not output) checks the count.
Queries without ORDER BY compare their rows as a multiset.
"""
import argparse
import os
import re
import sys
from collections import Counter

SEP = "\x1f"

# 0-based query -> 1-based output columns forming the ORDER BY key.
# "exact": ties cannot change the output; "count": only the row count is
# determined; missing: no ORDER BY (multiset compare).
ORDER_KEYS = {
    7: [2], 8: [2], 9: [3], 10: [2], 11: [3], 12: [2], 13: [2], 14: [3],
    15: [2], 16: [3], 17: "count", 18: [4], 21: [3], 22: [4], 23: [5],
    24: "count", 25: "exact", 26: "exact", 27: [2], 28: [2], 30: [3],
    31: [3], 32: [3], 33: [2], 34: [3], 35: [5], 36: [2], 37: [2], 38: [2],
    39: [6], 40: [3], 41: [3], 42: "exact",
}


def read_rows(path):
    """Rows of a psql -A -t -F 0x1f output file, or None when missing."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    if text.endswith("\n"):
        text = text[:-1]
    if text == "":
        return []
    return [tuple(line.split(SEP)) for line in text.split("\n")]


def key_of(row, cols):
    return tuple(row[c - 1] if c - 1 < len(row) else None for c in cols)


def compare(q, sql, exp, act):
    """Returns None when act matches exp for query number q, else a reason."""
    if len(exp) != len(act):
        return "%d rows, expected %d" % (len(act), len(exp))
    spec = ORDER_KEYS.get(q)
    has_limit = re.search(r"\bLIMIT\b", sql, re.I) is not None
    has_offset = re.search(r"\bOFFSET\b", sql, re.I) is not None
    if spec is None:
        return None if Counter(exp) == Counter(act) else "rows differ"
    if spec == "count":
        return None
    if spec == "exact":
        for i, (e, a) in enumerate(zip(exp, act)):
            if e != a:
                return "row %d: %r, expected %r" % (i + 1, SEP.join(a), SEP.join(e))
        return None
    ek = [key_of(r, spec) for r in exp]
    ak = [key_of(r, spec) for r in act]
    for i, (e, a) in enumerate(zip(ek, ak)):
        if e != a:
            return "row %d: ORDER BY key %r, expected %r" % (i + 1, a, e)
    loose = set()
    if has_limit and exp:
        loose.add(ek[-1])
        if has_offset:
            loose.add(ek[0])
    fixed_e = Counter(r for r, k in zip(exp, ek) if k not in loose)
    fixed_a = Counter(r for r, k in zip(act, ak) if k not in loose)
    if fixed_e != fixed_a:
        missing = list((fixed_e - fixed_a).elements())[:1]
        extra = list((fixed_a - fixed_e).elements())[:1]
        return "rows differ: missing %r, unexpected %r" % (
            [SEP.join(r) for r in missing], [SEP.join(r) for r in extra])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--actual", required=True)
    args = ap.parse_args()
    with open(args.queries, encoding="utf-8") as f:
        queries = [l.rstrip("\n") for l in f if l.strip()]
    failed = 0
    for q, sql in enumerate(queries):
        exp = read_rows(os.path.join(args.expected, "q%02d.out" % q))
        act = read_rows(os.path.join(args.actual, "q%02d.out" % q))
        err_path = os.path.join(args.actual, "q%02d.err" % q)
        if exp is None:
            reason = "no expected answer"
        elif os.path.exists(err_path) or act is None:
            msg = ""
            if os.path.exists(err_path):
                with open(err_path, encoding="utf-8", errors="replace") as f:
                    msg = " ".join(f.read().split())[:160]
            reason = "error: " + (msg or "no output")
        else:
            reason = compare(q, sql, exp, act)
        if reason:
            failed += 1
            print("Q%-2d FAIL  %s" % (q, reason))
        else:
            print("Q%-2d ok    %d rows" % (q, len(exp)))
    print("%d of %d queries match PostgreSQL" % (len(queries) - failed, len(queries)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
