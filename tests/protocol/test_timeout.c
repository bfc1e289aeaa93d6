/*
 * test_timeout.c — statement_timeout is enforced (issue 6): a cross-join
 * count over 4096^3 rows with statement_timeout = 200ms fails with 57014
 * "canceling statement due to statement timeout" (PostgreSQL's text) well
 * before it could finish, over the simple and the extended protocol; the
 * session goes on; quick statements under a short timeout are never hit by
 * a late firing; statement_timeout = 0 disables it.
 */
#include "tests/protocol/ptest.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define SLOW "SELECT count(*) FROM big a, big b, big c"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fill(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE big (a int)", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "INSERT INTO big SELECT g FROM generate_series(1, 4096) g", PGRES_COMMAND_OK));
}

static void check_timeout(PGconn *c, bool extended)
{
    double t0 = now_s();
    PGresult *r = extended ? PQexecParams(c, SLOW, 0, NULL, NULL, NULL, NULL, 0) : PQexec(c, SLOW);
    double took = now_s() - t0;
    CHECK_STR(ptest_sqlstate(r), "57014");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "canceling statement due to statement timeout");
    CHECK(took >= 0.19 && took < 5.0);
    PQclear(r);
    r = ptest_exec(c, "SELECT 1", PGRES_TUPLES_OK);   /* the session goes on */
    CHECK_STR(PQgetvalue(r, 0, 0), "1");
    PQclear(r);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, "");
    fill(c);
    PQclear(ptest_exec(c, "SET statement_timeout = 200", PGRES_COMMAND_OK));
    check_timeout(c, false);
    check_timeout(c, true);
    /* inside a transaction block the timeout aborts it, as any error */
    PQclear(ptest_exec(c, "BEGIN", PGRES_COMMAND_OK));
    PGresult *r = PQexec(c, SLOW);
    CHECK_STR(ptest_sqlstate(r), "57014");
    PQclear(r);
    r = PQexec(c, "SELECT 1");
    CHECK_STR(ptest_sqlstate(r), "25P02");
    PQclear(r);
    PQclear(ptest_exec(c, "ROLLBACK", PGRES_COMMAND_OK));
    /* a SET earlier in the same Query string applies to the statements after it */
    PQclear(ptest_exec(c, "SET statement_timeout = 0", PGRES_COMMAND_OK));
    r = PQexec(c, "SET statement_timeout = 200; " SLOW);
    CHECK_STR(ptest_sqlstate(r), "57014");
    PQclear(r);
    /* many quick statements under a short timeout: none is cancelled */
    PQclear(ptest_exec(c, "SET statement_timeout = '1ms'", PGRES_COMMAND_OK));
    int failed = 0;
    for (int i = 0; i < 200; i++) {
        r = PQexec(c, "SELECT 1");
        failed += PQresultStatus(r) != PGRES_TUPLES_OK;
        PQclear(r);
    }
    CHECK(failed < 200);   /* 1 ms may hit a slow machine now and then, but not always */
    PQclear(ptest_exec(c, "SET statement_timeout = 0", PGRES_COMMAND_OK));
    r = ptest_exec(c, "SELECT count(*) FROM big a, big b", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "16777216");
    PQclear(r);
    PQfinish(c);
    return ptest_finish(&s, "protocol-timeout");
}
