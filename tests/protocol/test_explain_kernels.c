/*
 * test_explain_kernels.c — EXPLAIN ANALYZE's "Kernels:" line (issue 7,
 * planner/explain.c, executor/README.md "Kernels in EXPLAIN ANALYZE"):
 * queries built to take one specialised path each — fused scan filters of
 * every width and text <> '', the fallback expression filter, one-group
 * register aggregates, the int8 sum with and without its overflow-free
 * path, row groups answered from metadata (and one fewer once a row of a
 * group is deleted), zone-map skips counted over parallel threads, hash
 * tables on fixed-width and string keys, DISTINCT, top-N bound filters,
 * hash-join probes — must name that path; plain EXPLAIN never prints the
 * line. A second server started with STRATA_PORTABLE_FILTERS=1 (the
 * explicit AVX2 filter kernels turned off) must name the packed kernel
 * instead. Lines are matched by substring, so times never matter.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 400000

static bool have_avx2(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

/* The title line of the first EXPLAIN ANALYZE line containing `node`, and
 * the Kernels line among its properties (up to the next node), or "". */
static void explain(PGconn *c, const char *sql, const char *node, char *title, size_t tsize, char *kern,
                    size_t ksize)
{
    char q[1024];
    snprintf(q, sizeof q, "EXPLAIN ANALYZE %s", sql);
    PGresult *r = ptest_exec(c, q, PGRES_TUPLES_OK);
    title[0] = kern[0] = '\0';
    int i = 0;
    while (i < PQntuples(r) && strstr(PQgetvalue(r, i, 0), node) == NULL)
        i++;
    if (i < PQntuples(r)) {
        snprintf(title, tsize, "%s", PQgetvalue(r, i, 0));
        for (int j = i + 1; j < PQntuples(r) && strstr(PQgetvalue(r, j, 0), "(actual rows=") == NULL; j++)
            if (strstr(PQgetvalue(r, j, 0), "Kernels: "))
                snprintf(kern, ksize, "%s", PQgetvalue(r, j, 0));
    } else {
        fprintf(stderr, "no line with \"%s\" in EXPLAIN ANALYZE %s\n", node, sql);
        ptest_failures++;
    }
    PQclear(r);
}

/* The node's Kernels line (static buffer). */
static const char *kernels(PGconn *c, const char *sql, const char *node)
{
    static char title[1024], kern[1024];
    explain(c, sql, node, title, sizeof title, kern, sizeof kern);
    return kern;
}

#define HAS(line, text)                                                                          \
    do {                                                                                         \
        const char *l_ = (line);                                                                 \
        if (strstr(l_, (text)) == NULL) {                                                        \
            fprintf(stderr, "%s:%d: \"%s\" not in \"%s\"\n", __FILE__, __LINE__, (text), l_);    \
            ptest_failures++;                                                                    \
        }                                                                                        \
    } while (0)
#define HASNT(line, text)                                                                        \
    do {                                                                                         \
        const char *l_ = (line);                                                                 \
        if (strstr(l_, (text)) != NULL) {                                                        \
            fprintf(stderr, "%s:%d: \"%s\" in \"%s\"\n", __FILE__, __LINE__, (text), l_);        \
            ptest_failures++;                                                                    \
        }                                                                                        \
    } while (0)

static void load(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE big AS SELECT g AS x, (g % 7)::smallint AS s, g::bigint * 3 AS b, "
                          "g::bigint * 10000000000000 AS h, 'v' || (g % 50) AS str, g % 100 AS k "
                          "FROM generate_series(1, 400000) g", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "CREATE TABLE m AS SELECT g AS x, g % 10 AS k FROM generate_series(1, 8192) g",
                       PGRES_COMMAND_OK));
}

static void check_filters(PGconn *c)
{
    const char *fused = have_avx2() ? "avx2 filter " : "packed filter ";
    char want[128];
    snprintf(want, sizeof want, "%si16 <> const", fused);
    HAS(kernels(c, "SELECT count(*) FROM big WHERE s <> 0", "Seq Scan"), want);
    snprintf(want, sizeof want, "%si64 >= const", fused);
    HAS(kernels(c, "SELECT count(*) FROM big WHERE 600000 <= b", "Seq Scan"), want);   /* flipped */
    HAS(kernels(c, "SELECT count(*) FROM big WHERE str <> ''", "Seq Scan"), "length filter text <> ''");
    /* not a column against a constant: the general path */
    const char *k = kernels(c, "SELECT count(*) FROM big WHERE s + 0 <> 0", "Seq Scan");
    HAS(k, "Kernels: expression filter");
    HASNT(k, "const");
    /* fused first conjunct, the rest on the rows it selected */
    k = kernels(c, "SELECT count(*) FROM big WHERE s <> 0 AND x % 2 = 0", "Seq Scan");
    HAS(k, "i16 <> const, other conjuncts on selected rows");
    HAS(kernels(c, "SELECT count(*) FROM big WHERE x > 0", "Seq Scan"), "all-pass batches");
    HASNT(kernels(c, "SELECT count(*) FROM big WHERE x = 17", "Seq Scan"), "all-pass");
    /* zone maps, counted over every thread: groups 171..195 hold only x >= 350000 */
    char title[1024], kern[1024];
    explain(c, "SELECT k, count(*) FROM big WHERE x < 350000 GROUP BY k", "HashAggregate", title,
            sizeof title, kern, sizeof kern);
    HAS(title, "workers=");
    HAS(kern, "hash table (fixed-width keys), per-group update loops");
    HAS(kernels(c, "SELECT k, count(*) FROM big WHERE x < 350000 GROUP BY k", "Seq Scan"),
        "zone maps skipped 25 row groups");
}

static void check_aggregates(PGconn *c)
{
    const char *clone = have_avx2() ? "avx2 clones" : "default clones";
    const char *k = kernels(c, "SELECT count(*), sum(x), sum(b), min(b), max(s) FROM big", "Aggregate");
    HAS(k, "one group, count(*) by batch size, register sum i16/i32, int8 sum (no overflow), register min/max");
    HAS(k, clone);
    HASNT(k, "exact split");
    /* every batch holds values past 2^51: the exact 32-bit split */
    k = kernels(c, "SELECT sum(h) FROM big", "Aggregate");
    HAS(k, "int8 sum (exact split)");
    HASNT(k, "no overflow");
    HAS(kernels(c, "SELECT count(x) FILTER (WHERE s = 1) FROM big", "Aggregate"), "per-group update loops, FILTER selection");
    HAS(kernels(c, "SELECT sum(s + 1), sum(s + 2), sum(s) FROM big", "Aggregate"), "shared sum states, sum(x + c) folded");
    k = kernels(c, "SELECT str, count(DISTINCT k) FROM big GROUP BY str", "HashAggregate");
    HAS(k, "hash table (string keys)");
    HAS(k, "distinct value set");
    HAS(kernels(c, "SELECT string_agg(str, ',') FROM m JOIN big USING (x)", "Aggregate"), "registry aggregate");
    /* a group per row: partitioned over the threads, each thread's bits ORed in */
    char title[1024], kern[1024];
    explain(c, "SELECT x, count(*) FROM big GROUP BY x", "HashAggregate", title, sizeof title, kern, sizeof kern);
    HAS(title, " partitioned)");
    CHECK_STR(kern, "  Kernels: hash table (fixed-width keys), per-group update loops");
    /* count/min/max from metadata: m is 4 full row groups ... */
    const char *q = "SELECT count(*), min(x), max(x) FROM m";
    HAS(kernels(c, q, "Seq Scan"), "Kernels: 4 row groups from metadata");
    k = kernels(c, q, "Aggregate");
    HAS(k, "metadata fold");
    HASNT(k, "register min/max");
    /* ... a deleted row takes its group off the metadata path */
    PQclear(ptest_exec(c, "DELETE FROM m WHERE x = 5", PGRES_COMMAND_OK));
    HAS(kernels(c, q, "Seq Scan"), "Kernels: 3 row groups from metadata");
    HAS(kernels(c, q, "Aggregate"), "register min/max, metadata fold");
    PGresult *r = ptest_exec(c, q, PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "8191");
    PQclear(r);
}

static void check_sort_join(PGconn *c)
{
    char title[1024], kern[1024];
    explain(c, "SELECT x FROM big ORDER BY b DESC LIMIT 3", "Sort  (", title, sizeof title, kern, sizeof kern);
    HAS(title, "workers=");
    HAS(kern, "top-N quickselect, bound filter (one integer key)");
    HAS(kernels(c, "SELECT x FROM big ORDER BY k DESC, x LIMIT 3", "Sort  ("), "top-N quickselect, bound filter");
    HAS(kernels(c, "SELECT x FROM m WHERE x < 5 ORDER BY k", "Sort  ("), "Kernels: merge sort");
    HAS(kernels(c, "SELECT count(*) FROM m a JOIN m b ON a.x = b.x", "Hash Join"), "Kernels: hash chains");
    HAS(kernels(c, "SELECT count(*) FROM m WHERE x NOT IN (SELECT k FROM m)", "Hash"),
        "first-match probe, null-aware check");
    /* plain EXPLAIN: PostgreSQL's text, no Kernels line */
    PGresult *r = ptest_exec(c, "EXPLAIN SELECT count(*) FROM big WHERE s <> 0", PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 3);
    for (int i = 0; i < PQntuples(r); i++)
        HASNT(PQgetvalue(r, i, 0), "Kernels");
    PQclear(r);
}

/* The explicit AVX2 filter kernels turned off: the packed ones run, and say so. */
static void check_portable(void)
{
    setenv("STRATA_PORTABLE_FILTERS", "1", 1);
    TestServer s;
    ptest_start(&s, NULL, NULL);
    unsetenv("STRATA_PORTABLE_FILTERS");
    PGconn *c = ptest_connect(&s, "");
    PQclear(ptest_exec(c, "CREATE TABLE p AS SELECT (g % 7)::smallint AS s FROM generate_series(1, 5000) g",
                       PGRES_COMMAND_OK));
    const char *k = kernels(c, "SELECT count(*) FROM p WHERE s <> 0", "Seq Scan");
    HAS(k, "packed filter i16 <> const");
    HAS(k, have_avx2() ? "avx2 clones" : "default clones");
    HASNT(k, "avx2 filter");
    PGresult *r = ptest_exec(c, "SELECT count(*) FROM p WHERE s <> 0", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "4286");
    PQclear(r);
    PQfinish(c);
    harness_server_stop(&s);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, "");
    load(c);
    check_filters(c);
    check_aggregates(c);
    check_sort_join(c);
    PQfinish(c);
    check_portable();
    return ptest_finish(&s, "explain-kernels");
}
