/*
 * test_prepared_replan.c — a statement prepared with Parse is planned again
 * at its next Bind once an ANALYZE has committed, as PostgreSQL's plan
 * cache re-plans after the invalidation an ANALYZE sends
 * (protocol/extended.c stmt_revalidate, storage store_stats_epoch).
 *
 * Engine-neutral checks, so that the same program runs against a real
 * PostgreSQL 15 when STRATA_TEST_PG_CONNINFO names one (which is how they
 * were checked): the ANALYZE changes the plan of the query (a freshly
 * planned EXPLAIN, in the other session, differs before and after); the
 * prepared EXPLAIN shows
 * exactly the fresh plan both before and after, and so does a prepared
 * SELECT's row order; a prepared `SELECT *` re-planned after ADD COLUMN
 * and ANALYZE fails with 0A000 "cached plan must not change result type".
 */
#include <stdbool.h>
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
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        fprintf(stderr, "\"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

/* A result's rows, one line each (columns joined by '|'), or "ERROR:<state>". */
static char *rows_text(PGresult *r)
{
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    if (!out)
        exit(1);
    out[0] = '\0';
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        snprintf(out, cap, "ERROR:%s", ptest_sqlstate(r));
        PQclear(r);
        return out;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        for (int j = 0; j < PQnfields(r); j++) {
            const char *v = PQgetvalue(r, i, j);
            size_t need = len + strlen(v) + 3;
            if (need > cap) {
                cap = need * 2;
                out = realloc(out, cap);
                if (!out)
                    exit(1);
            }
            len += (size_t)sprintf(out + len, "%s%s", j ? "|" : "", v);
        }
        if (len + 2 > cap) {
            cap *= 2;
            out = realloc(out, cap);
            if (!out)
                exit(1);
        }
        out[len++] = '\n';
        out[len] = '\0';
    }
    PQclear(r);
    return out;
}

static char *fresh(PGconn *c, const char *sql) { return rows_text(PQexec(c, sql)); }

static char *prepared(PGconn *c, const char *name)
{
    return rows_text(PQexecPrepared(c, name, 0, NULL, NULL, NULL, 0));
}

static void prepare(PGconn *c, const char *name, const char *sql)
{
    PGresult *r = PQprepare(c, name, sql, 0, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "prepare \"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

static void check_same(const char *what, char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "%s:\n--- prepared\n%s--- fresh\n%s", what, got, want);
        ptest_failures++;
    }
    free(got);
}

#define JOIN_SQL "SELECT pb.a, pa.b FROM pb JOIN pa ON pa.a = pb.a WHERE pa.a > 0"

static void phase_analyze_replans(PGconn *a, PGconn *b)
{
    PQclear(PQexec(a, "DROP TABLE IF EXISTS pa, pb, pc"));
    ok(a, "CREATE TABLE pa (a int, b text)");
    ok(a, "INSERT INTO pa SELECT g, 'x' || g FROM generate_series(1, 20000) g");
    ok(a, "CREATE TABLE pb (a int)");
    ok(a, "INSERT INTO pb SELECT 11 - g FROM generate_series(1, 10) g");
    prepare(b, "ex", "EXPLAIN " JOIN_SQL);
    prepare(b, "sel", JOIN_SQL);
    prepare(b, "", "EXPLAIN " JOIN_SQL);   /* the unnamed one too (b runs no Query after) */
    char *before = fresh(a, "EXPLAIN " JOIN_SQL);
    check_same("EXPLAIN before ANALYZE", prepared(b, "ex"), before);
    char *rows = fresh(a, JOIN_SQL);
    check_same("SELECT before ANALYZE", prepared(b, "sel"), rows);
    free(rows);

    ok(a, "ANALYZE pa");   /* another session's ANALYZE */
    ok(a, "ANALYZE pb");
    char *after = fresh(a, "EXPLAIN " JOIN_SQL);
    CHECK(strcmp(before, after) != 0);   /* the statistics change the plan */
    check_same("EXPLAIN after ANALYZE", prepared(b, "ex"), after);
    check_same("unnamed EXPLAIN after ANALYZE", prepared(b, ""), after);
    rows = fresh(a, JOIN_SQL);
    check_same("SELECT after ANALYZE", prepared(b, "sel"), rows);
    check_same("SELECT again", prepared(b, "sel"), rows);
    free(rows);
    free(before);
    free(after);

    /* A re-plan may not change the statement's columns (0A000). */
    ok(a, "CREATE TABLE pc (x int)");
    ok(a, "INSERT INTO pc VALUES (1)");
    prepare(b, "star", "SELECT * FROM pc");
    check_same("SELECT * before", prepared(b, "star"), "1\n");
    ok(a, "ALTER TABLE pc ADD COLUMN y int");
    ok(a, "ANALYZE pc");
    PGresult *r = PQexecPrepared(b, "star", 0, NULL, NULL, NULL, 0);
    CHECK_STR(ptest_sqlstate(r), "0A000");
    const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    CHECK_STR(msg ? msg : "", "cached plan must not change result type");
    PQclear(r);
    ok(a, "DROP TABLE pa, pb, pc");
}

int main(void)
{
    const char *pg = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg)
        ptest_start(&server, NULL, NULL);
    PGconn *a = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    PGconn *b = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    if (PQstatus(a) != CONNECTION_OK || PQstatus(b) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(a));
        return 1;
    }
    PQsetNoticeProcessor(a, no_notices, NULL);
    phase_analyze_replans(a, b);
    PQfinish(b);
    PQfinish(a);
    if (pg) {
        printf("prepared_replan (PostgreSQL): %s\n", ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    /* Checked: a sanitizer report in the server's log fails the test too. */
    if (harness_server_stop_checked(&server) != 0)
        ptest_failures++;
    if (ptest_failures) {
        fprintf(stderr, "prepared_replan: %d check(s) failed\n", ptest_failures);
        return 1;
    }
    printf("prepared_replan: ok\n");
    return 0;
}
