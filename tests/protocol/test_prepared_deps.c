/*
 * test_prepared_deps.c — which changes re-plan a statement prepared with
 * Parse, as PostgreSQL 15's plan cache decides (protocol/extended.c
 * stmt_stale, storage/plandeps.c, planner plan_search_path_key): a change
 * of a relation its plan found, or of the schemas search_path finds — and
 * nothing else.
 *
 * The re-plans are made visible by a table created under the statement's
 * table name in a schema searched first: PostgreSQL does not re-plan for
 * that alone (its PREPARE documentation says so), so the statement keeps
 * reading the old table until something it depends on changes. Checked:
 * DDL and ANALYZE of another table leave the plan; ALTER of its own table
 * re-plans (and then finds the new one); search_path set to another text
 * that finds the same schemas leaves it, one that finds others re-plans;
 * a schema of search_path that comes into existence re-plans; so does the
 * session's first temporary table (its schema joins the search); DROP of
 * the table it read re-plans onto the one left. The same program runs
 * against PostgreSQL 15 when STRATA_TEST_PG_CONNINFO names one, which is
 * how every expectation was checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/protocol/ptest.h"

static TestServer server;

static void no_notices(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

static void ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
        fprintf(stderr, "\"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

/* The prepared statement's one value, or "ERROR:<sqlstate>". */
static void expect(int line, PGconn *c, const char *name, const char *want)
{
    PGresult *r = PQexecPrepared(c, name, 0, NULL, NULL, NULL, 0);
    char got[64];
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        snprintf(got, sizeof got, "ERROR:%s", ptest_sqlstate(r));
    else
        snprintf(got, sizeof got, "%s", PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "?");
    PQclear(r);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "line %d: %s gave \"%s\", expected \"%s\"\n", line, name, got, want);
        ptest_failures++;
    }
}
#define EXPECT(c, name, want) expect(__LINE__, c, name, want)

static void prepare(PGconn *c, const char *name, const char *sql)
{
    PGresult *r = PQprepare(c, name, sql, 0, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "prepare \"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

static PGconn *connect_one(const char *pg)
{
    PGconn *c = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(c));
        exit(1);
    }
    PQsetNoticeProcessor(c, no_notices, NULL);
    return c;
}

/* c prepares over public.t; o changes the catalog. */
static void phase_relations(PGconn *c, PGconn *o)
{
    ok(o, "CREATE TABLE t (a int); INSERT INTO t VALUES (1)");
    ok(o, "CREATE TABLE other (a int); CREATE SCHEMA s");
    ok(c, "SET search_path = s, public");
    prepare(c, "p", "SELECT a FROM t");
    EXPECT(c, "p", "1");
    ok(o, "CREATE TABLE s.t (a int); INSERT INTO s.t VALUES (2)");
    EXPECT(c, "p", "1");   /* no relation of p changed */
    ok(o, "ALTER TABLE other ADD COLUMN b int");
    ok(o, "INSERT INTO other VALUES (5, 5)");
    ok(o, "ANALYZE other");
    ok(o, "CREATE TABLE other2 (a int); DROP TABLE other2");
    EXPECT(c, "p", "1");   /* other tables' DDL and ANALYZE */
    ok(c, "SET search_path = s, public, nosuchschema");
    EXPECT(c, "p", "1");   /* another text, the same schemas */
    ok(o, "ALTER TABLE public.t ADD COLUMN b int");
    EXPECT(c, "p", "2");   /* its table changed: planned again, s.t first */
    ok(o, "DROP TABLE s.t");
    EXPECT(c, "p", "1");   /* the table it read is gone: public.t again */
    ok(o, "CREATE TABLE s.t (a int); INSERT INTO s.t VALUES (3)");
    ok(c, "SET search_path = public");
    EXPECT(c, "p", "1");
    ok(c, "SET search_path = s, public");
    EXPECT(c, "p", "3");   /* other schemas: planned again */
    ok(o, "DROP TABLE s.t; DROP TABLE other");
}

/* A schema of search_path that did not exist, then the session's first
 * temporary table: both change the schemas searched. */
static void phase_schemas(PGconn *c, PGconn *o)
{
    ok(c, "SET search_path = q, public");
    prepare(c, "r", "SELECT a FROM t");
    EXPECT(c, "r", "1");
    ok(o, "CREATE SCHEMA q");
    ok(o, "CREATE TABLE q.t (a int); INSERT INTO q.t VALUES (4)");
    EXPECT(c, "r", "4");
    ok(c, "CREATE TEMP TABLE t (a int); INSERT INTO t VALUES (5)");
    EXPECT(c, "r", "5");
    ok(c, "DROP TABLE pg_temp.t");
    EXPECT(c, "r", "4");
    ok(o, "DROP SCHEMA q CASCADE");
    EXPECT(c, "r", "1");
}

int main(void)
{
    const char *pg = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg)
        ptest_start(&server, NULL, NULL);
    PGconn *o = connect_one(pg);
    ok(o, "DROP SCHEMA IF EXISTS s CASCADE; DROP SCHEMA IF EXISTS q CASCADE; DROP TABLE IF EXISTS t, other");
    PGconn *c = connect_one(pg);
    phase_relations(c, o);
    PQfinish(c);
    c = connect_one(pg);   /* a session without a temporary schema yet */
    phase_schemas(c, o);
    PQfinish(c);
    ok(o, "DROP SCHEMA s CASCADE; DROP TABLE t");
    PQfinish(o);
    if (pg) {
        printf("prepared_deps (PostgreSQL): %s\n", ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    return ptest_finish(&server, "prepared_deps");
}
