#!/usr/bin/env python3
"""calibrate.py: the generator's calibration table: answers of PostgreSQL 15
to ClickBench's queries on a generated file next to the real file's known
answers (HITS_FACTS.md section 4.2), scaled to the generated row count.

  calibrate.py DIR        # DIR: qNN.out files of a PostgreSQL run (compare.sh's postgresql-out)

Prints a markdown table. Counts of top values scale linearly with the row
count; distinct counts do not: a smaller file is a sample of the same
population, which has relatively more distinct values, so for them the
scaled real value is a floor.
"""
import os
import sys

REAL = 99997497


class Missing(Exception):
    pass


def rows(d, q):
    p = os.path.join(d, "q%02d.out" % q)
    if not os.path.exists(p):
        raise Missing(q)
    with open(p, encoding="utf-8") as f:
        return [l.rstrip("\n").split("\x1f") for l in f if l.strip("\n")]


def main():
    d = sys.argv[1]
    n = int(rows(d, 0)[0][0])
    f = n / REAL
    out = []

    def line(q, what, gen, real, scale=True):
        r = real * f if scale and isinstance(real, (int, float)) else real
        if isinstance(r, float):
            r = "%.0f" % r if scale else "%g" % r
        out.append("| Q%s | %s | %s | %s |" % (q, what, gen, r))

    try:
        line(0, "rows", n, REAL)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(1, "AdvEngineID <> 0", rows(d, 1)[0][0], 630500)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q2 = rows(d, 2)[0]
        line(2, "SUM(AdvEngineID)", q2[0], 7280088)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(2, "AVG(ResolutionWidth)", "%.2f" % float(q2[2]), 1513.49, False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(3, "AVG(UserID)", "%.3g" % float(rows(d, 3)[0][0]), 2.529e18, False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(4, "COUNT(DISTINCT UserID) (a sample: scaled real value is a floor)", rows(d, 4)[0][0], 17630976)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(5, "COUNT(DISTINCT SearchPhrase) (idem)", rows(d, 5)[0][0], 6019103)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q6 = rows(d, 6)[0]
        line(6, "MIN/MAX(EventDate)", "%s / %s" % (q6[0], q6[1]), "2013-07-02 / 2013-07-31", False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q7 = rows(d, 7)
        line(7, "AdvEngineID values; top (id: rows)", "%d; %s: %s" % (len(q7), q7[0][0], q7[0][1]),
             "18; 2: %.0f" % (404602 * f), False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q8 = rows(d, 8)[0]
        line(8, "top region by users (%s)" % q8[0], q8[1], 2845673)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q9 = rows(d, 9)
        line(9, "top region by rows (%s)" % q9[0][0], q9[0][2], 18295832)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(9, "top 10 regions' share of rows", "%.1f %%" % (100.0 * sum(int(r[2]) for r in q9) / n), "42.5 %", False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q10 = rows(d, 10)[0]
        line(10, "users of top model (%s)" % q10[0], q10[1], 1090347)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q12 = rows(d, 12)
        line(12, "top SearchPhrase rows; 10th", "%s; %s" % (q12[0][1], q12[-1][1]),
             "%.0f; %.0f" % (70263 * f, 12317 * f), False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(13, "top SearchPhrase users", rows(d, 13)[0][1], 23673)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q15 = rows(d, 15)
        line(15, "top UserID rows; 10th", "%s; %s" % (q15[0][1], q15[-1][1]), "%.0f; %.0f" % (29097 * f, 4906 * f), False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(19, "rows of UserID 435090932899640449", len(rows(d, 19)), "4 (planted: max(1, round(4N/99997497)))", False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(20, "URL LIKE '%google%'", rows(d, 20)[0][0], 15911)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q27 = rows(d, 27)
        line(27, "counters with > 100000 rows (absolute)", "%d (%s)" % (len(q27), ", ".join(r[0] for r in q27)),
             "25 at 100M; at this size: those above 100000 rows", False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q28 = rows(d, 28)
        line(28, "referer hosts with > 100000 rows (absolute)", "%d (%s)" % (len(q28), ", ".join(r[0] for r in q28)),
             "25 at 100M", False)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(29, "SUM(ResolutionWidth)", rows(d, 29)[0][0], 151345005230)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        q33 = rows(d, 33)
        line(33, "top URL rows (%s)" % q33[0][0], q33[0][1], 3288173)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(35, "top ClientIP rows", rows(d, 35)[0][4], 47008)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(36, "counter 62: top URL page views", rows(d, 36)[0][1], 102341)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    try:
        line(37, "counter 62: top Title page views", rows(d, 37)[0][1], 122407)
    except Missing as e:
        out.append("| Q%s | (not measured) | | |" % e)
    for q in range(38, 43):
        try:
            line(q, "rows returned (OFFSET query)", len(rows(d, q)), 10, False)
        except Missing as e:
            out.append("| Q%s | (not measured) | | |" % e)
    print("| Q | measure | generated (PostgreSQL 15) | real file, scaled |")
    print("|---|---|---|---|")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
