/*
 * test_parallel.c — parallel pipelines through the server (executor/parallel.c):
 * EXPLAIN ANALYZE names the workers and how they shared the input (morsels
 * for an aggregation that reduces well and for a top-N sort, partitioned
 * for a group per row) and counts every row once (morsels) or once per
 * thread (partitioned); max_parallel_workers_per_gather = 0 keeps one
 * thread; statement_timeout cancels a parallel aggregation within a
 * fraction of its run time; an error met on any thread reaches the client
 * and the session goes on; two sessions run parallel aggregations at once
 * and both get the right answer.
 */
#include "tests/protocol/ptest.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROWS 400000

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The EXPLAIN ANALYZE line that contains `node`, or "" (static buffer). */
static const char *explain_line(PGconn *c, const char *sql, const char *node)
{
    static char line[1024];
    char q[512];
    snprintf(q, sizeof q, "EXPLAIN ANALYZE %s", sql);
    PGresult *r = ptest_exec(c, q, PGRES_TUPLES_OK);
    line[0] = '\0';
    for (int i = 0; i < PQntuples(r); i++)
        if (strstr(PQgetvalue(r, i, 0), node) && line[0] == '\0')
            snprintf(line, sizeof line, "%s", PQgetvalue(r, i, 0));
    PQclear(r);
    return line;
}

static unsigned long long rows_of(const char *line)
{
    const char *p = strstr(line, "rows=");
    return p ? strtoull(p + 5, NULL, 10) : 0;
}

static void check_explain(PGconn *c)
{
    /* 100 groups from 400K rows: morsels shared, the scan reads each row once */
    const char *agg = explain_line(c, "SELECT k, count(*) FROM big GROUP BY k", "HashAggregate");
    CHECK(strstr(agg, " morsels)") != NULL);
    CHECK(strstr(agg, "workers=") != NULL);
    CHECK(rows_of(agg) == 100);
    const char *scan = explain_line(c, "SELECT k, count(*) FROM big GROUP BY k", "Seq Scan");
    CHECK(rows_of(scan) == ROWS);
    CHECK(strstr(scan, "loops=1 ") == NULL);   /* one loop per thread */
    /* a group per row: partitioned, every thread reads every row */
    agg = explain_line(c, "SELECT x, count(*) FROM big GROUP BY x", "HashAggregate");
    CHECK(strstr(agg, " partitioned)") != NULL);
    CHECK(rows_of(agg) == ROWS);
    scan = explain_line(c, "SELECT x, count(*) FROM big GROUP BY x", "Seq Scan");
    CHECK(rows_of(scan) >= 2 * (unsigned long long)ROWS);
    /* top-N sort: morsels */
    const char *sort = explain_line(c, "SELECT x FROM big ORDER BY s DESC LIMIT 3", "Sort  (");
    CHECK(strstr(sort, " morsels)") != NULL);
    /* one thread when asked */
    PQclear(ptest_exec(c, "SET max_parallel_workers_per_gather = 0", PGRES_COMMAND_OK));
    agg = explain_line(c, "SELECT k, count(*) FROM big GROUP BY k", "HashAggregate");
    CHECK(agg[0] != '\0' && strstr(agg, "workers=") == NULL);
    PQclear(ptest_exec(c, "RESET max_parallel_workers_per_gather", PGRES_COMMAND_OK));
}

static void check_cancel_and_errors(PGconn *c)
{
    PQclear(ptest_exec(c, "SET statement_timeout = 200", PGRES_COMMAND_OK));
    double t0 = now_s();
    PGresult *r = PQexec(c, "SELECT k, sum(length(repeat(s, 4000))) FROM big GROUP BY k");
    double took = now_s() - t0;
    CHECK_STR(ptest_sqlstate(r), "57014");
    CHECK(took < 3.0);
    PQclear(r);
    PQclear(ptest_exec(c, "SET statement_timeout = 0", PGRES_COMMAND_OK));
    for (int i = 0; i < 3; i++) {   /* whichever thread meets x = 300000 */
        r = PQexec(c, "SELECT k, sum(100 / (x - 300000)) FROM big GROUP BY k");
        CHECK_STR(ptest_sqlstate(r), "22012");
        PQclear(r);
        r = PQexec(c, "SELECT x, sum(100 / (x - 300000)) FROM big GROUP BY x");
        CHECK_STR(ptest_sqlstate(r), "22012");
        PQclear(r);
    }
    r = ptest_exec(c, "SELECT count(*), sum(x) FROM big", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "400000");
    CHECK_STR(PQgetvalue(r, 0, 1), "80000200000");
    PQclear(r);
}

typedef struct Client {
    const TestServer *s;
    int failures;
} Client;

/* Another session's parallel aggregations, 10 times over. */
static void *client_main(void *arg)
{
    Client *cl = arg;
    PGconn *c = ptest_connect(cl->s, "");
    for (int i = 0; i < 10; i++) {
        PGresult *r = PQexec(c, "SELECT count(*), sum(c) FROM (SELECT x % 1000 AS g, count(*) c FROM big GROUP BY 1) q");
        if (PQresultStatus(r) != PGRES_TUPLES_OK || strcmp(PQgetvalue(r, 0, 0), "1000") != 0 ||
            strcmp(PQgetvalue(r, 0, 1), "400000") != 0)
            cl->failures++;
        PQclear(r);
    }
    PQfinish(c);
    return NULL;
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, "");
    PQclear(ptest_exec(c, "CREATE TABLE big AS SELECT g AS x, g % 100 AS k, 'v' || g AS s "
                          "FROM generate_series(1, 400000) g", PGRES_COMMAND_OK));
    check_explain(c);
    check_cancel_and_errors(c);
    Client cl = {&s, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, client_main, &cl) == 0);
    for (int i = 0; i < 10; i++) {
        PGresult *r = ptest_exec(c, "SELECT count(*), max(c) FROM (SELECT x, count(*) c FROM big GROUP BY x) q",
                                 PGRES_TUPLES_OK);
        CHECK_STR(PQgetvalue(r, 0, 0), "400000");
        CHECK_STR(PQgetvalue(r, 0, 1), "1");
        PQclear(r);
    }
    pthread_join(t, NULL);
    CHECK(cl.failures == 0);
    PQfinish(c);
    return ptest_finish(&s, "parallel");
}
