/*
 * test_pipeline.c — pipelined extended-protocol messages (libpq pipeline
 * mode): several Bind/Execute groups before one Sync, answered in order;
 * an error in the middle makes the server skip to the Sync (libpq reports
 * PGRES_PIPELINE_ABORTED for the skipped ones); the next Sync cycle works.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <string.h>

/* Next result of the pipeline, and the NULL that ends each query's results. */
static ExecStatusType next_status(PGconn *c, char *value, size_t size)
{
    PGresult *r = PQgetResult(c);
    if (!r)
        return (ExecStatusType)-1;
    ExecStatusType st = PQresultStatus(r);
    if (value && st == PGRES_TUPLES_OK && PQntuples(r) > 0)
        snprintf(value, size, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    if (st != PGRES_PIPELINE_SYNC)
        CHECK(PQgetResult(c) == NULL);
    return st;
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, NULL);
    if (PQstatus(c) == CONNECTION_OK) {
        PQclear(ptest_exec(c, "CREATE TABLE pl (a int)", PGRES_COMMAND_OK));
        CHECK(PQenterPipelineMode(c));
        const char *one[1] = {"1"}, *two[1] = {"2"};
        CHECK(PQsendQueryParams(c, "INSERT INTO pl VALUES ($1::int)", 1, NULL, one, NULL, NULL, 0));
        CHECK(PQsendQueryParams(c, "SELECT count(*) FROM pl", 0, NULL, NULL, NULL, NULL, 0));
        CHECK(PQsendQueryParams(c, "SELECT 1/0", 0, NULL, NULL, NULL, NULL, 0));
        CHECK(PQsendQueryParams(c, "INSERT INTO pl VALUES ($1::int)", 1, NULL, two, NULL, NULL, 0));
        CHECK(PQpipelineSync(c));
        CHECK(PQsendQueryParams(c, "SELECT count(*) FROM pl", 0, NULL, NULL, NULL, NULL, 0));
        CHECK(PQpipelineSync(c));
        char v[64] = "";
        CHECK(next_status(c, NULL, 0) == PGRES_COMMAND_OK);
        CHECK(next_status(c, v, sizeof v) == PGRES_TUPLES_OK);
        CHECK_STR(v, "1");
        CHECK(next_status(c, NULL, 0) == PGRES_FATAL_ERROR);
        CHECK(next_status(c, NULL, 0) == PGRES_PIPELINE_ABORTED);
        CHECK(next_status(c, NULL, 0) == PGRES_PIPELINE_SYNC);
        v[0] = '\0';
        CHECK(next_status(c, v, sizeof v) == PGRES_TUPLES_OK);
        /* the first group was one implicit transaction: rolled back by the error */
        CHECK_STR(v, "0");
        CHECK(next_status(c, NULL, 0) == PGRES_PIPELINE_SYNC);
        CHECK(PQexitPipelineMode(c));
        PQclear(ptest_exec(c, "SELECT 1", PGRES_TUPLES_OK));
    }
    PQfinish(c);
    return ptest_finish(&s, "protocol-pipeline");
}
