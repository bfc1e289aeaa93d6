/*
 * test_upsert_rr.c — INSERT … ON CONFLICT against a key another session
 * committed after this transaction's snapshot (executor/op_insert.c):
 * REPEATABLE READ gets 40001 "could not serialize access due to concurrent
 * update" for DO NOTHING and DO UPDATE, as PostgreSQL 15 does; READ
 * COMMITTED sees the key and skips or updates; a plain INSERT stays 23505.
 * Sequential (no blocking involved): session b takes its snapshot, session
 * a commits the key, then b upserts.
 */
#include <stdio.h>
#include <string.h>
#include "tests/protocol/ptest.h"

static TestServer server;

/* b's snapshot first, then a's committed key k, then b's statement. */
static PGresult *after_concurrent_key(PGconn *a, PGconn *b, const char *level, int k, const char *sql)
{
    char buf[256];
    snprintf(buf, sizeof buf, "BEGIN ISOLATION LEVEL %s", level);
    PQclear(ptest_exec(b, buf, PGRES_COMMAND_OK));
    PQclear(ptest_exec(b, "SELECT count(*) FROM rr", PGRES_TUPLES_OK));
    snprintf(buf, sizeof buf, "INSERT INTO rr VALUES (%d, 0)", k);
    PQclear(ptest_exec(a, buf, PGRES_COMMAND_OK));
    return PQexec(b, sql);
}

static void expect_40001(PGconn *a, PGconn *b, int k, const char *sql)
{
    PGresult *r = after_concurrent_key(a, b, "REPEATABLE READ", k, sql);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "40001");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "could not serialize access due to concurrent update");
    PQclear(r);
    PQclear(ptest_exec(b, "ROLLBACK", PGRES_COMMAND_OK));
}

static void phase_repeatable_read(PGconn *a, PGconn *b)
{
    expect_40001(a, b, 7, "INSERT INTO rr VALUES (7, 1) ON CONFLICT DO NOTHING");
    expect_40001(a, b, 8, "INSERT INTO rr VALUES (8, 1) ON CONFLICT (k) DO UPDATE SET v = 5");
    expect_40001(a, b, 9, "INSERT INTO rr VALUES (9, 1) ON CONFLICT (k) DO UPDATE SET v = 5 WHERE false");
    expect_40001(a, b, 10, "INSERT INTO rr VALUES (100, 1), (10, 1) ON CONFLICT (k) DO NOTHING RETURNING k");
    /* without ON CONFLICT it stays the unique violation */
    PGresult *r = after_concurrent_key(a, b, "REPEATABLE READ", 11, "INSERT INTO rr VALUES (11, 1)");
    CHECK_STR(ptest_sqlstate(r), "23505");
    PQclear(r);
    PQclear(ptest_exec(b, "ROLLBACK", PGRES_COMMAND_OK));
    /* a key already in the snapshot is an ordinary conflict */
    PQclear(ptest_exec(b, "BEGIN ISOLATION LEVEL REPEATABLE READ", PGRES_COMMAND_OK));
    r = ptest_exec(b, "INSERT INTO rr VALUES (7, 1) ON CONFLICT DO NOTHING", PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "INSERT 0 0");
    PQclear(r);
    PQclear(ptest_exec(b, "COMMIT", PGRES_COMMAND_OK));
}

static void phase_read_committed(PGconn *a, PGconn *b)
{
    PGresult *r = after_concurrent_key(a, b, "READ COMMITTED", 20, "INSERT INTO rr VALUES (20, 1) ON CONFLICT DO NOTHING");
    CHECK_STR(PQcmdStatus(r), "INSERT 0 0");
    PQclear(r);
    PQclear(ptest_exec(b, "COMMIT", PGRES_COMMAND_OK));
    r = after_concurrent_key(a, b, "READ COMMITTED", 21,
                             "INSERT INTO rr VALUES (21, 1) ON CONFLICT (k) DO UPDATE SET v = 5 RETURNING v");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "5") == 0);
    PQclear(r);
    PQclear(ptest_exec(b, "COMMIT", PGRES_COMMAND_OK));
    r = ptest_exec(a, "SELECT count(*), sum(v) FROM rr", PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "7") == 0 && strcmp(PQgetvalue(r, 0, 1), "5") == 0);
    PQclear(r);
}

int main(void)
{
    ptest_start(&server, NULL, NULL);
    PGconn *a = ptest_connect(&server, "");
    PGconn *b = ptest_connect(&server, "");
    PQclear(ptest_exec(a, "CREATE TABLE rr (k int PRIMARY KEY, v int)", PGRES_COMMAND_OK));
    phase_repeatable_read(a, b);
    phase_read_committed(a, b);
    PQfinish(b);
    PQfinish(a);
    return ptest_finish(&server, "upsert_rr");
}
