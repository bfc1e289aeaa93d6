/*
 * test_copy.c — COPY on the wire through libpq: CopyInResponse/CopyData/
 * CopyDone with rows split across CopyData messages at arbitrary bytes,
 * pgbench's trailing "\." line, CopyFail, errors with their CONTEXT line
 * (PostgreSQL's text), CopyOutResponse with one row per CopyData, CSV
 * options, COPY (query) TO STDOUT, server files, the "COPY n" tag, and the
 * session staying usable after each failure. Expected texts are those of
 * PostgreSQL 15.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run a COPY FROM STDIN, sending data in chunks of chunk bytes; returns the
 * final result (caller clears). fail_msg non-NULL sends CopyFail instead. */
static PGresult *copy_in(PGconn *c, const char *sql, const char *data, size_t chunk,
                         const char *fail_msg)
{
    PGresult *r = PQexec(c, sql);
    CHECK(PQresultStatus(r) == PGRES_COPY_IN);
    if (PQresultStatus(r) != PGRES_COPY_IN)
        return r;
    CHECK(PQnfields(r) >= 0 && PQbinaryTuples(r) == 0);
    PQclear(r);
    size_t len = strlen(data);
    for (size_t off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        CHECK(PQputCopyData(c, data + off, (int)n) == 1);
    }
    CHECK(PQputCopyEnd(c, fail_msg) == 1);
    r = PQgetResult(c);
    PGresult *extra;
    while ((extra = PQgetResult(c)) != NULL)
        PQclear(extra);
    return r;
}

/* All CopyData of a COPY TO STDOUT concatenated; *messages their count. */
static char *copy_out(PGconn *c, const char *sql, int *messages, const char **tag)
{
    static char status[64];
    PGresult *r = PQexec(c, sql);
    CHECK(PQresultStatus(r) == PGRES_COPY_OUT);
    if (PQresultStatus(r) != PGRES_COPY_OUT) {
        fprintf(stderr, "copy_out(%s): %s", sql, PQresultErrorMessage(r));
        PQclear(r);
        return strdup("");
    }
    PQclear(r);
    size_t cap = 4096, len = 0;
    char *all = malloc(cap);
    *messages = 0;
    char *buf;
    int n;
    while ((n = PQgetCopyData(c, &buf, 0)) > 0) {
        if (len + (size_t)n + 1 > cap) {
            cap = (len + (size_t)n + 1) * 2;
            all = realloc(all, cap);
        }
        memcpy(all + len, buf, (size_t)n);
        len += (size_t)n;
        (*messages)++;
        PQfreemem(buf);
    }
    all[len] = '\0';
    r = PQgetResult(c);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    snprintf(status, sizeof status, "%s", PQcmdStatus(r));
    *tag = status;
    PQclear(r);
    while ((r = PQgetResult(c)) != NULL)
        PQclear(r);
    return all;
}

static void check_copy_in(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE t (a int, b text, c float8)", PGRES_COMMAND_OK));
    /* Rows cut at every byte boundary; pgbench-style trailing \. line. */
    const char *data = "1\thello\t1.5\n2\t\\N\t2\n3\tx\\ty\t-1e3\n\\.\n";
    PGresult *r = copy_in(c, "COPY t FROM STDIN", data, 1, NULL);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "COPY 3");
    PQclear(r);
    /* Whole input in one CopyData, no trailing newline on the last row. */
    r = copy_in(c, "COPY t (b, a) FROM STDIN", "four\t4\nfive\t5", 64, NULL);
    CHECK_STR(PQcmdStatus(r), "COPY 2");
    PQclear(r);
    r = ptest_exec(c, "SELECT count(*), sum(a), count(b), count(c) FROM t", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "5");
    CHECK_STR(PQgetvalue(r, 0, 1), "15");
    CHECK_STR(PQgetvalue(r, 0, 2), "4");
    CHECK_STR(PQgetvalue(r, 0, 3), "3");
    PQclear(r);
    r = ptest_exec(c, "SELECT b FROM t WHERE a = 3", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "x\ty");
    PQclear(r);
}

/* A batch bigger than one vector: thousands of rows in odd-sized chunks. */
static void check_copy_in_many(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE big (k bigint, v text)", PGRES_COMMAND_OK));
    size_t cap = 5000 * 32, len = 0;
    char *data = malloc(cap);
    for (int i = 1; i <= 5000; i++)
        len += (size_t)snprintf(data + len, cap - len, "%d,\"v%d\"\n", i, i);
    PGresult *r = copy_in(c, "COPY big FROM STDIN (FORMAT csv)", data, 777, NULL);
    CHECK_STR(PQcmdStatus(r), "COPY 5000");
    PQclear(r);
    free(data);
    r = ptest_exec(c, "SELECT count(*), sum(k), max(v) FROM big", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "5000");
    CHECK_STR(PQgetvalue(r, 0, 1), "12502500");
    CHECK_STR(PQgetvalue(r, 0, 2), "v999");
    PQclear(r);
}

static void check_copy_errors(PGconn *c)
{
    PGresult *r = copy_in(c, "COPY t FROM STDIN", "1\ta\t1\n2\tb\t2\n3\tc\tx\n", 5, NULL);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "22P02");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY),
              "invalid input syntax for type double precision: \"x\"");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_CONTEXT), "COPY t, line 3, column c: \"x\"");
    PQclear(r);
    r = copy_in(c, "COPY t FROM STDIN", "1\ta\n", 100, NULL);
    CHECK_STR(ptest_sqlstate(r), "22P04");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "missing data for column \"c\"");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_CONTEXT), "COPY t, line 1: \"1\ta\"");
    PQclear(r);
    r = copy_in(c, "COPY t FROM STDIN (FORMAT csv)", "1,\"abc\n", 100, NULL);
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "unterminated CSV quoted field");
    PQclear(r);
    r = copy_in(c, "COPY t FROM STDIN", "9\tz\t9\n", 100, "client gave up");
    CHECK_STR(ptest_sqlstate(r), "57014");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "COPY from stdin failed: client gave up");
    PQclear(r);
    /* Nothing of the failed COPYs was kept; the session still works. */
    r = ptest_exec(c, "SELECT count(*) FROM t", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "5");
    PQclear(r);
    r = ptest_exec(c, "COPY t FROM STDIN (FORMAT xx)", PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "22023");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION), "20");
    PQclear(r);
    r = ptest_exec(c, "COPY nosuch TO STDOUT", PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "42P01");
    PQclear(r);
    r = ptest_exec(c, "COPY t (a, zz) TO STDOUT", PGRES_FATAL_ERROR);
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "column \"zz\" of relation \"t\" does not exist");
    PQclear(r);
    r = ptest_exec(c, "COPY t TO STDOUT (QUOTE 'x')", PGRES_FATAL_ERROR);
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "COPY quote available only in CSV mode");
    PQclear(r);
}

static void check_copy_out(PGconn *c)
{
    int msgs;
    const char *tag;
    char *out = copy_out(c, "COPY (SELECT a, b, c FROM t WHERE a <= 3 ORDER BY a) TO STDOUT", &msgs, &tag);
    CHECK_STR(out, "1\thello\t1.5\n2\t\\N\t2\n3\tx\\ty\t-1000\n");
    CHECK(msgs == 3);   /* one CopyData per row, as PostgreSQL */
    CHECK_STR(tag, "COPY 3");
    free(out);
    out = copy_out(c, "COPY (SELECT a, b FROM t WHERE a IN (1, 3) ORDER BY a) TO STDOUT "
                      "(FORMAT csv, HEADER, FORCE_QUOTE (b))", &msgs, &tag);
    CHECK_STR(out, "a,b\n1,\"hello\"\n3,\"x\ty\"\n");
    CHECK_STR(tag, "COPY 2");
    free(out);
    out = copy_out(c, "COPY (SELECT 'q\"x' AS s, NULL::int AS n, '' AS e) TO STDOUT (FORMAT csv)", &msgs, &tag);
    CHECK_STR(out, "\"q\"\"x\",,\"\"\n");
    free(out);
    out = copy_out(c, "COPY big (k) TO STDOUT (DELIMITER '|')", &msgs, &tag);
    CHECK_STR(tag, "COPY 5000");
    CHECK(msgs == 5000 && strlen(out) > 5000);
    free(out);
}

/* COPY to and from a server file (the test runs as the superuser). */
static void check_server_file(PGconn *c, const TestServer *s)
{
    char path[600], sql[800];
    snprintf(path, sizeof path, "%s/copy_test.csv", s->datadir);
    snprintf(sql, sizeof sql, "COPY t TO '%s' (FORMAT csv, HEADER)", path);
    PGresult *r = ptest_exec(c, sql, PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "COPY 5");
    PQclear(r);
    PQclear(ptest_exec(c, "CREATE TABLE t2 (a int, b text, c float8)", PGRES_COMMAND_OK));
    snprintf(sql, sizeof sql, "COPY t2 FROM '%s' (FORMAT csv, HEADER true)", path);
    r = ptest_exec(c, sql, PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "COPY 5");
    PQclear(r);
    r = ptest_exec(c, "SELECT count(*) FROM t2 JOIN t USING (a) WHERE t2.b IS NOT DISTINCT FROM t.b",
                   PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "5");
    PQclear(r);
    unlink(path);
    r = ptest_exec(c, "COPY t2 FROM '/nonexistent/copy.txt'", PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "58P01");
    PQclear(r);
}

/* COPY inside a block: rolled back with it. */
static void check_transaction(PGconn *c)
{
    PQclear(ptest_exec(c, "BEGIN", PGRES_COMMAND_OK));
    PGresult *r = copy_in(c, "COPY t (a) FROM STDIN", "100\n101\n", 3, NULL);
    CHECK_STR(PQcmdStatus(r), "COPY 2");
    PQclear(r);
    CHECK(PQtransactionStatus(c) == PQTRANS_INTRANS);
    PQclear(ptest_exec(c, "ROLLBACK", PGRES_COMMAND_OK));
    r = ptest_exec(c, "SELECT count(*) FROM t", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "5");
    PQclear(r);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, "application_name=ptest");
    if (PQstatus(c) == CONNECTION_OK) {
        check_copy_in(c);
        check_copy_in_many(c);
        check_copy_errors(c);
        check_copy_out(c);
        check_server_file(c, &s);
        check_transaction(c);
    }
    PQfinish(c);
    return ptest_finish(&s, "protocol-copy");
}
